[=header]
---
- name: Install the NVIDIA driver, CUDA toolkit, Fabric Manager and DCGM
  hosts: gpu_nodes
  become: true
  gather_facts: true
  gather_subset:
    - "!all"
  roles:
    - role: nvidia_driver
      tags: [nvidia_driver]
