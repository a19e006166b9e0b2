[=header]
---
- name: Check the driver settings
  ansible.builtin.assert:
    that:
      - nvidia_driver_version is match('^[0-9]{3}[.][0-9]{1,3}([.][0-9]{1,3})?$')
      - nvidia_driver_version.split('.') | first == nvidia_driver_branch | string
      - nvidia_driver_kernel_modules in ['open', 'proprietary']
      - nvidia_driver_cuda_package is match('^cuda-toolkit-[0-9]+-[0-9]+$')
      - nvidia_driver_cuda_major | string is match('^[0-9]+$')
    fail_msg: >-
      nvidia_driver_version must be an exact driver version of branch nvidia_driver_branch,
      nvidia_driver_kernel_modules open or proprietary, nvidia_driver_cuda_package a
      cuda-toolkit-X-Y package (never the cuda meta-package, which pulls in another driver), and
      nvidia_driver_cuda_major the driver's CUDA major version (DCGM is built per CUDA major).
    quiet: true

- name: Pin the driver packages to the spec's version
  ansible.builtin.template:
    src: nvidia-driver.pref.j2
    dest: /etc/apt/preferences.d/gpugen-nvidia-driver.pref
    owner: root
    group: root
    mode: "0644"

- name: Read the version of the loaded driver
  ansible.builtin.slurp:
    src: /sys/module/nvidia/version
  register: nvidia_driver_loaded
  failed_when: false
  when: nvidia_driver_live_host | bool

- name: Refuse to replace a running driver outside the rolling upgrade
  ansible.builtin.assert:
    that:
      - nvidia_driver_allow_upgrade | bool or nvidia_driver_loaded_version in ['', nvidia_driver_version]
    fail_msg: >-
      driver {{ nvidia_driver_loaded_version }} is loaded and the spec wants {{ nvidia_driver_version }}:
      run upgrade-driver.yml, which drains the node first.
    quiet: true
  vars:
    nvidia_driver_loaded_version: "{{ (nvidia_driver_loaded.content | default('') | b64decode).strip() }}"
  when: nvidia_driver_live_host | bool

- name: Install the packages from NVIDIA's repository
  tags: [network]
  block:
    - name: Install the CUDA repository keyring package
      ansible.builtin.apt:
        deb: "{{ nvidia_driver_repo_url }}/{{ nvidia_driver_keyring_package }}"
        state: present
        lock_timeout: "{{ nvidia_driver_apt_lock_timeout }}"
      notify: Refresh the apt cache for the CUDA repository

    - name: Refresh the apt cache when the repository was added
      ansible.builtin.meta: flush_handlers

    # From branch 590 the packages carry no branch in their names: the pinning package holds apt
    # on the branch (installed first, as NVIDIA's guide advises); the preferences file above holds
    # it on the exact version.
    - name: Install the pinning package of the driver branch
      ansible.builtin.apt:
        name: "{{ nvidia_driver_pinning_package }}"
        state: present
        update_cache: true
        cache_valid_time: "{{ nvidia_driver_apt_cache_valid_time }}"
        install_recommends: false
        lock_timeout: "{{ nvidia_driver_apt_lock_timeout }}"
      when: nvidia_driver_unversioned_names | bool

    - name: Install the driver at the spec's version
      ansible.builtin.apt:
        name: "{{ nvidia_driver_package }}={{ nvidia_driver_version }}-*"
        state: present
        update_cache: true
        cache_valid_time: "{{ nvidia_driver_apt_cache_valid_time }}"
        install_recommends: false
        allow_change_held_packages: "{{ nvidia_driver_allow_upgrade | bool }}"
        allow_downgrade: "{{ nvidia_driver_allow_upgrade | bool }}"
        lock_timeout: "{{ nvidia_driver_apt_lock_timeout }}"

    - name: Install Fabric Manager at the driver's version
      ansible.builtin.apt:
        name: "{{ nvidia_driver_fabricmanager_packages | map('regex_replace', '$', '=' ~ nvidia_driver_version ~ '-*') | list }}"
        state: present
        install_recommends: false
        allow_change_held_packages: "{{ nvidia_driver_allow_upgrade | bool }}"
        allow_downgrade: "{{ nvidia_driver_allow_upgrade | bool }}"
        lock_timeout: "{{ nvidia_driver_apt_lock_timeout }}"
      when: nvidia_driver_fabricmanager | bool

    - name: Install the CUDA toolkit and DCGM
      ansible.builtin.apt:
        name:
          - "{{ nvidia_driver_cuda_package }}"
          - "{{ nvidia_driver_dcgm_package }}"
        state: present
        install_recommends: false
        lock_timeout: "{{ nvidia_driver_apt_lock_timeout }}"

    - name: Hold the driver packages against upgrades
      ansible.builtin.dpkg_selections:
        name: "{{ item }}"
        selection: hold
      loop: >-
        {{ [nvidia_driver_package] + (nvidia_driver_fabricmanager_packages if nvidia_driver_fabricmanager | bool else []) }}

- name: Create the drop-in folder of nvidia-persistenced
  ansible.builtin.file:
    path: "{{ nvidia_driver_persistenced_dropin | dirname }}"
    state: directory
    owner: root
    group: root
    mode: "0755"

- name: Start nvidia-persistenced with persistence mode on
  ansible.builtin.copy:
    content: |
      # Managed by Ansible (gpugen role nvidia_driver): the packaged unit starts the daemon with
      # --no-persistence-mode; this one keeps the GPUs initialised between jobs.
      [Service]
      ExecStart=
      ExecStart={{ nvidia_driver_persistenced_command }}
    dest: "{{ nvidia_driver_persistenced_dropin }}"
    owner: root
    group: root
    mode: "0644"
  notify: Restart nvidia-persistenced

- name: Enable the NVIDIA services
  ansible.builtin.systemd:
    name: "{{ item }}"
    enabled: true
  loop: "{{ nvidia_driver_services }}"
  tags: [hardware]

- name: Load and check the driver
  when: nvidia_driver_live_host | bool
  tags: [hardware]
  block:
    - name: Reboot to load the new driver
      ansible.builtin.reboot:
        msg: "gpugen: rebooting to load NVIDIA driver {{ nvidia_driver_version }}"
        reboot_timeout: "{{ nvidia_driver_reboot_timeout }}"
      when: (nvidia_driver_loaded.content | default('') | b64decode).strip() not in ['', nvidia_driver_version]
      tags: [reboot]

    - name: Load the driver's kernel modules
      community.general.modprobe:
        name: "{{ item }}"
        state: present
      loop:
        - nvidia
        - nvidia_uvm

    - name: Start the NVIDIA services
      ansible.builtin.systemd:
        name: "{{ item }}"
        state: started
      loop: "{{ nvidia_driver_services }}"

    - name: Query the driver version of every GPU
      ansible.builtin.command:
        cmd: nvidia-smi --query-gpu=driver_version --format=csv,noheader
      register: nvidia_driver_smi
      changed_when: false

    - name: Check that nvidia-smi reports the spec's driver version
      ansible.builtin.assert:
        that:
          - nvidia_driver_smi.stdout_lines | length > 0
          - nvidia_driver_smi.stdout_lines | map('trim') | unique | list == [nvidia_driver_version]
        fail_msg: "nvidia-smi reports {{ nvidia_driver_smi.stdout_lines | unique | join(', ') }}, the spec says {{ nvidia_driver_version }}"
        quiet: true
