[=header]
---
- name: Check the container toolkit settings
  ansible.builtin.assert:
    that:
      - container_runtime_toolkit_version is match('^[0-9]+[.][0-9]+[.][0-9]+$')
    fail_msg: container_runtime_toolkit_version must be an exact version such as 1.17.8
    quiet: true

- name: Pin the container toolkit packages to the spec's version
  ansible.builtin.template:
    src: nvidia-container-toolkit.pref.j2
    dest: /etc/apt/preferences.d/gpugen-nvidia-container-toolkit.pref
    owner: root
    group: root
    mode: "0644"

- name: Install containerd and the NVIDIA Container Toolkit
  tags: [network]
  block:
    - name: Create the apt keyring folder
      ansible.builtin.file:
        path: "{{ container_runtime_keyring | dirname }}"
        state: directory
        owner: root
        group: root
        mode: "0755"

    - name: Download the signing key of the toolkit repository
      ansible.builtin.get_url:
        url: "{{ container_runtime_keyring_url }}"
        dest: "{{ container_runtime_keyring }}"
        owner: root
        group: root
        mode: "0644"

    - name: Add the toolkit repository
      ansible.builtin.copy:
        dest: /etc/apt/sources.list.d/nvidia-container-toolkit.list
        content: |
          # Managed by Ansible (gpugen role container_runtime).
          deb [signed-by={{ container_runtime_keyring }}] {{ container_runtime_repo_url }}/$(ARCH) /
        owner: root
        group: root
        mode: "0644"
      notify: Refresh the apt cache for the toolkit repository

    - name: Refresh the apt cache when the repository was added
      ansible.builtin.meta: flush_handlers

    - name: Install containerd
      ansible.builtin.apt:
        name: "{{ container_runtime_containerd_package }}"
        state: present
        update_cache: true
        cache_valid_time: "{{ container_runtime_apt_cache_valid_time }}"
        install_recommends: false
      when: container_runtime_containerd_package | length > 0

    - name: Install the toolkit packages, all at the spec's version
      ansible.builtin.apt:
        name: "{{ container_runtime_toolkit_packages | map('regex_replace', '$', '=' ~ container_runtime_toolkit_version ~ '-*') | list }}"
        state: present
        update_cache: true
        cache_valid_time: "{{ container_runtime_apt_cache_valid_time }}"
        install_recommends: false
        allow_change_held_packages: true

    - name: Hold the toolkit packages against upgrades
      ansible.builtin.dpkg_selections:
        name: "{{ item }}"
        selection: hold
      loop: "{{ container_runtime_toolkit_packages }}"

# nvidia-ctk edits config.toml in place (it never regenerates it) and creates it when missing.
# It runs every time, also when config.toml already exists; the checksums of containerd's
# configuration before and after tell whether it changed anything.
- name: Configure containerd to use the NVIDIA runtime
  ansible.builtin.shell:
    cmd: |
      set -euo pipefail
      config={{ container_runtime_containerd_config | quote }}
      state() { { cat "$config" /etc/containerd/conf.d/*.toml 2>/dev/null || true; } | sha256sum; }
      before=$(state)
      nvidia-ctk runtime configure --runtime=containerd --config="$config" {{ container_runtime_ctk_args | map('quote') | join(' ') }}
      after=$(state)
      if [ "$before" != "$after" ]; then echo changed; fi
    executable: /bin/bash
  vars:
    container_runtime_ctk_args: "{{ ['--set-as-default'] if container_runtime_set_as_default | bool else [] }}"
  register: container_runtime_configure
  changed_when: "'changed' in container_runtime_configure.stdout_lines"
  notify: Restart containerd
  tags: [hardware]

- name: Enable containerd
  ansible.builtin.systemd:
    name: containerd.service
    enabled: true
  tags: [hardware]

- name: Start containerd
  ansible.builtin.systemd:
    name: containerd.service
    state: started
  when: container_runtime_live_host | bool
  tags: [hardware]
