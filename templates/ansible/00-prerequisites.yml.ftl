[=header]
---
- name: Prepare the kernel of the GPU nodes
  hosts: gpu_nodes
  become: true
  gather_facts: true
  gather_subset:
    - "!all"
  roles:
    - role: prerequisites
      tags: [prerequisites]
