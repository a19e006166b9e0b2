[=header]
---
# Every host runs every check and gets a report (reports/<host>.json on the controller) before
# any host is failed, so one bad node does not hide the figures of the others.
- name: Validate the GPU nodes
  hosts: gpu_nodes
  become: true
  gather_facts: true
  gather_subset:
    - "!all"
  roles:
    - role: validation
      tags: [validation]
