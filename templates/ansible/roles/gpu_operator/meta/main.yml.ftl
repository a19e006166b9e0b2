[=header]
---
galaxy_info:
  role_name: gpu_operator
  namespace: gpugen
  author: gpugen
  description: NVIDIA GPU Operator chart (host driver and toolkit), node labels and taints, cordon and drain
  # The gpugen project has not chosen a license yet.
  license: proprietary
  min_ansible_version: "2.14"
  # Ubuntu 22.04 (jammy) and 24.04 (noble); ansible-lint 6.13's schema does not list noble yet.
  platforms:
    - name: Ubuntu
      versions:
        - all
  galaxy_tags: [nvidia, gpu, kubernetes, helm]
dependencies: []
