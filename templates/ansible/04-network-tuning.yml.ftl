[=header]
---
- name: Configure NCCL and the inter-node fabric
  hosts: gpu_nodes
  become: true
  gather_facts: true
  gather_subset:
    - "!all"
  roles:
    - role: nccl_network
      tags: [nccl_network]
