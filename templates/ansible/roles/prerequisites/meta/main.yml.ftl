[=header]
---
galaxy_info:
  role_name: prerequisites
  namespace: gpugen
  author: gpugen
  description: Kernel prerequisites of an NVIDIA GPU node - nouveau blacklist, sysctl, DKMS build tools
  # The gpugen project has not chosen a license yet.
  license: proprietary
  min_ansible_version: "2.14"
  # Ubuntu 22.04 (jammy) and 24.04 (noble); ansible-lint 6.13's schema does not list noble yet.
  platforms:
    - name: Ubuntu
      versions:
        - all
  galaxy_tags: [nvidia, gpu, kernel]
dependencies: []
