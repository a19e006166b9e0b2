[=header]
---
- name: Refresh the apt cache for the CUDA repository
  ansible.builtin.apt:
    update_cache: true
