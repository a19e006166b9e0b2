[=header]
---
galaxy_info:
  role_name: nvidia_driver
  namespace: gpugen
  author: gpugen
  description: NVIDIA data-center driver at an exact version, CUDA toolkit, Fabric Manager and DCGM
  # The gpugen project has not chosen a license yet.
  license: proprietary
  min_ansible_version: "2.14"
  # Ubuntu 22.04 (jammy) and 24.04 (noble); ansible-lint 6.13's schema does not list noble yet.
  platforms:
    - name: Ubuntu
      versions:
        - all
  galaxy_tags: [nvidia, gpu, cuda, driver]
dependencies: []
