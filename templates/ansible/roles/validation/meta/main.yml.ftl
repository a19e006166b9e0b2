[=header]
---
galaxy_info:
  role_name: validation
  namespace: gpugen
  author: gpugen
  description: GPU node validation - versions, gpu-burn, nccl-tests all_reduce_perf, DCGM diagnostics
  # The gpugen project has not chosen a license yet.
  license: proprietary
  min_ansible_version: "2.14"
  # Ubuntu 22.04 (jammy) and 24.04 (noble); ansible-lint 6.13's schema does not list noble yet.
  platforms:
    - name: Ubuntu
      versions:
        - all
  galaxy_tags: [nvidia, gpu, validation]
dependencies: []
