[=header]
---
- name: Refresh the apt cache for the CUDA repository
  ansible.builtin.apt:
    update_cache: true

- name: Restart nvidia-persistenced
  ansible.builtin.systemd:
    name: nvidia-persistenced.service
    state: restarted
    daemon_reload: true
  when: nvidia_driver_live_host | bool
