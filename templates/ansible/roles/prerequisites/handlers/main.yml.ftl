[=header]
---
# -k all: a kernel that is installed but not yet booted must not load nouveau either.
- name: Regenerate the initramfs
  ansible.builtin.command:
    cmd: update-initramfs -u -k all
  changed_when: true
  when: prerequisites_initramfs_tool.stat.exists
