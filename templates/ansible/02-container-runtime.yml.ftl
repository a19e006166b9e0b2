[=header]
---
- name: Configure containerd with the NVIDIA Container Toolkit
  hosts: gpu_nodes
  become: true
  gather_facts: true
  gather_subset:
    - "!all"
  roles:
    - role: container_runtime
      tags: [container_runtime]
