[=header]
---
- name: Refresh the apt cache for the toolkit repository
  ansible.builtin.apt:
    update_cache: true

# Running containers keep running: their shims do not depend on the containerd daemon.
- name: Restart containerd
  ansible.builtin.systemd:
    name: containerd.service
    state: restarted
  when: container_runtime_live_host | bool
