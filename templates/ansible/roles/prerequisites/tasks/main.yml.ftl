[=header]
---
- name: Check whether the nouveau module is loaded
  ansible.builtin.stat:
    path: /sys/module/nouveau
  register: prerequisites_nouveau_module

- name: Check for the initramfs generator
  ansible.builtin.stat:
    path: /usr/sbin/update-initramfs
  register: prerequisites_initramfs_tool

- name: Blacklist the nouveau driver
  ansible.builtin.copy:
    dest: /etc/modprobe.d/blacklist-nouveau.conf
    content: |
      # Managed by Ansible (gpugen role prerequisites); local changes are overwritten.
      blacklist nouveau
      options nouveau modeset=0
    owner: root
    group: root
    mode: "0644"
  when: prerequisites_blacklist_nouveau | bool
  notify: Regenerate the initramfs

- name: Remove the nouveau blacklist
  ansible.builtin.file:
    path: /etc/modprobe.d/blacklist-nouveau.conf
    state: absent
  when: not prerequisites_blacklist_nouveau | bool
  notify: Regenerate the initramfs

- name: Set the kernel parameters
  ansible.posix.sysctl:
    name: "{{ item.key }}"
    value: "{{ item.value }}"
    sysctl_file: "{{ prerequisites_sysctl_file }}"
    sysctl_set: "{{ prerequisites_live_host | bool }}"
    reload: "{{ prerequisites_live_host | bool }}"
    state: present
  loop: "{{ prerequisites_sysctl | dict2items }}"
  loop_control:
    label: "{{ item.key }}"

- name: Install build tools and the headers of the running kernel
  ansible.builtin.apt:
    name: "{{ prerequisites_packages }}"
    state: present
    update_cache: true
    cache_valid_time: "{{ prerequisites_apt_cache_valid_time }}"
    install_recommends: false
  tags: [network]

- name: Regenerate the initramfs before any reboot
  ansible.builtin.meta: flush_handlers

- name: Reboot to unload nouveau
  when:
    - prerequisites_live_host | bool
    - prerequisites_reboot_allowed | bool
    - prerequisites_blacklist_nouveau | bool
    - prerequisites_nouveau_module.stat.exists
  tags: [reboot]
  block:
    - name: Reboot the node, since nouveau holds the GPUs
      ansible.builtin.reboot:
        msg: "gpugen: rebooting to unload nouveau before the NVIDIA driver is installed"
        reboot_timeout: "{{ prerequisites_reboot_timeout }}"

    - name: Gather facts again after the reboot
      ansible.builtin.setup:
        gather_subset:
          - "!all"

    - name: Check whether nouveau is still loaded
      ansible.builtin.stat:
        path: /sys/module/nouveau
      register: prerequisites_nouveau_after_reboot

    - name: Fail when nouveau survived the reboot
      ansible.builtin.assert:
        that:
          - not prerequisites_nouveau_after_reboot.stat.exists
        fail_msg: >-
          nouveau is still loaded after the reboot: check /etc/modprobe.d/blacklist-nouveau.conf
          and that the initramfs was regenerated (update-initramfs -u -k all).
        quiet: true
