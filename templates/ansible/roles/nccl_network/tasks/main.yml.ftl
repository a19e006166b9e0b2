[=header]
---
# The spec's interface, else the one holding the address the host is reached at (ip -o addr), else
# the default route's. Looked up on live hosts only: a chroot (image builds, tests) has no network of
# its own, so there nccl.conf pins only an interface the spec names.
- name: Find the bootstrap interface
  when: nccl_network_pin_socket_ifname | bool
  block:
    - name: List the host's addresses
      ansible.builtin.command:
        argv: [ip, -o, addr, show]
      register: nccl_network_ip_addr
      changed_when: false
      when:
        - nccl_network_bootstrap_interface | length == 0
        - nccl_network_live_host | bool

    - name: Show the default route
      ansible.builtin.command:
        argv: [ip, -o, route, show, default]
      register: nccl_network_ip_route
      changed_when: false
      when:
        - nccl_network_bootstrap_interface | length == 0
        - nccl_network_live_host | bool

    - name: Settle the bootstrap interface
      ansible.builtin.set_fact:
        nccl_network_bootstrap_interface_found: >-
          {{ nccl_network_bootstrap_interface if nccl_network_bootstrap_interface | length > 0
             else (nccl_network_by_address | first | default(nccl_network_by_route | first | default(''))) }}
      vars:
        nccl_network_by_address: >-
          {{ nccl_network_ip_addr.stdout_lines | default([])
             | select('search', ' inet6? ' ~ (nccl_network_host_address | regex_escape) ~ '/')
             | map('split') | map(attribute=1) | map('regex_replace', '@.*$', '') | list }}
        nccl_network_by_route: >-
          {{ nccl_network_ip_route.stdout_lines | default([])
             | map('regex_search', ' dev [^ ]+') | select | map('regex_replace', '^ dev ', '') | list }}

    - name: Check the bootstrap interface
      ansible.builtin.assert:
        that:
          - nccl_network_bootstrap_interface_found is match('^[A-Za-z0-9][A-Za-z0-9_.:-]{0,14}$')
        fail_msg: >-
          No bootstrap interface for NCCL on {{ inventory_hostname }}: no interface holds
          {{ nccl_network_host_address }} and there is no default route. Set pools[].bootstrapInterface
          in the spec to the interface the nodes reach each other through.
        quiet: true
      when: nccl_network_live_host | bool or nccl_network_bootstrap_interface | length > 0

- name: Check the fabric and the NCCL variables
  ansible.builtin.assert:
    that:
      - nccl_network_fabric in ['efa', 'infiniband', 'roce', 'tcp']
      - nccl_network_env_effective.keys() | reject('match', '^[A-Z_][A-Z0-9_]*$') | list | length == 0
      - nccl_network_env_effective.values() | map('string') | select('search', '[^A-Za-z0-9^_.,:=/+@%-]') | list | length == 0
    fail_msg: >-
      nccl_network_fabric must be efa, infiniband, roce or tcp, and every NCCL variable NAME=VALUE
      with a value of letters, digits and ^ _ . , : = / + @ % - only: NCCL reads nccl.conf verbatim,
      so quotes or spaces would become part of the value.
    quiet: true

- name: Refuse NCCL_IB_DISABLE=1 on an InfiniBand or RoCE fabric
  ansible.builtin.assert:
    that:
      - nccl_network_env_effective['NCCL_IB_DISABLE'] | default('0') | string != '1'
    fail_msg: NCCL_IB_DISABLE=1 turns off the InfiniBand and RoCE transports and falls back to TCP sockets.
    quiet: true
  when: nccl_network_fabric in ['infiniband', 'roce']

- name: Write the NCCL configuration
  ansible.builtin.template:
    src: nccl.conf.j2
    dest: "{{ nccl_network_conf_file }}"
    owner: root
    group: root
    mode: "0644"

- name: Export the NCCL variables in login shells
  ansible.builtin.template:
    src: nccl.sh.j2
    dest: "{{ nccl_network_profile_file }}"
    owner: root
    group: root
    mode: "0644"

- name: Create the local facts folder
  ansible.builtin.file:
    path: "{{ nccl_network_fact_dir }}"
    state: directory
    owner: root
    group: root
    mode: "0755"

- name: Read the baseline fact
  ansible.builtin.slurp:
    src: "{{ nccl_network_fact_dir }}/gpugen.fact"
  register: nccl_network_old_fact
  failed_when: false

# validated_at stays only while the spec is the one that was validated.
- name: Write the baseline fact
  ansible.builtin.copy:
    content: "{{ nccl_network_baseline | combine(nccl_network_kept) | to_nice_json(indent=2) }}\n"
    dest: "{{ nccl_network_fact_dir }}/gpugen.fact"
    owner: root
    group: root
    mode: "0644"
  vars:
    nccl_network_old: >-
      {{ (nccl_network_old_fact.content | b64decode | from_json) if nccl_network_old_fact.content is defined else {} }}
    nccl_network_kept: >-
      {{ {'validated_at': nccl_network_old.validated_at}
         if nccl_network_old.validated_at is defined
            and nccl_network_old.gpugen_spec_sha256 | default('') == nccl_network_baseline.gpugen_spec_sha256
         else {} }}

# Executable: setup runs it on every fact gathering and reads its JSON from stdout.
- name: Install the live NCCL fact
  ansible.builtin.copy:
    content: |
      #!/usr/bin/python3
      # Managed by Ansible (gpugen role nccl_network). Prints the hash of the NCCL variables in
      # {{ nccl_network_conf_file }} as it is now (sha256 of the sorted NAME=VALUE lines) and the
      # variables themselves, so gpugen drift can say which one differs.
      import hashlib, json
      path = "{{ nccl_network_conf_file }}"
      env = dict()
      try:
          with open(path, encoding="utf-8") as f:
              for line in f.read().splitlines():
                  if line.strip() and not line.lstrip().startswith("#") and "=" in line:
                      name, value = line.split("=", 1)
                      env[name] = value
          text = "".join(n + "=" + env[n] + "\n" for n in sorted(env))
          print(json.dumps(dict(conf=path, env=env, nccl_env_sha256=hashlib.sha256(text.encode()).hexdigest())))
      except OSError as e:
          print(json.dumps(dict(conf=path, error=str(e))))
    dest: "{{ nccl_network_fact_dir }}/gpugen_nccl.fact"
    owner: root
    group: root
    mode: "0755"

<#if ansible.efaPools()>
# Before the EFA software, as in AWS's guide (Step 4, then Step 5), and after play 01, which
# installs the NVIDIA driver (gdrdrv is built against its source in /usr/src/nvidia-<version>:
# GDRCopy's README) and the CUDA toolkit. Skipped when the pinned release is installed: its marker
# exists and dpkg has all four packages.
- name: Install GDRCopy
  when: nccl_network_gdrcopy | bool
  tags: [network, gdrcopy]
  vars:
    nccl_network_gdrcopy_packages_dir: >-
      {{ nccl_network_gdrcopy_work_dir }}/{{ nccl_network_gdrcopy_version }}/gdrcopy-{{ nccl_network_gdrcopy_version }}/packages
  block:
    - name: Look for the marker of the installed GDRCopy release
      ansible.builtin.stat:
        path: "{{ nccl_network_gdrcopy_work_dir }}/{{ nccl_network_gdrcopy_version }}/installed"
      register: nccl_network_gdrcopy_marker

    - name: Query the GDRCopy packages
      ansible.builtin.command:
        argv: "{{ ['dpkg-query', '-W', '-f=${Package} ${db:Status-Abbrev}\\n'] + nccl_network_gdrcopy_packages }}"
      register: nccl_network_gdrcopy_dpkg
      changed_when: false
      failed_when: false

    - name: Build and install GDRCopy
      when: >-
        not nccl_network_gdrcopy_marker.stat.exists
        or nccl_network_gdrcopy_dpkg.stdout_lines | select('match', '^[^ ]+ ii ') | list | length
           != nccl_network_gdrcopy_packages | length
      block:
        - name: Check that the CUDA toolkit of play 01 is there
          ansible.builtin.stat:
            path: "{{ nccl_network_gdrcopy_cuda_home }}/include/cuda.h"
          register: nccl_network_gdrcopy_cuda_h

        - name: Refuse to build GDRCopy without the CUDA toolkit
          ansible.builtin.assert:
            that:
              - nccl_network_gdrcopy_cuda_h.stat.exists
            fail_msg: >-
              {{ nccl_network_gdrcopy_cuda_home }}/include/cuda.h is missing: GDRCopy's tests package is
              built against the CUDA toolkit, which play 01 (01-nvidia-driver.yml) installs. Run it first.
            quiet: true

        - name: Install what GDRCopy's packages are built with
          ansible.builtin.apt:
            name: "{{ nccl_network_gdrcopy_build_packages }}"
            state: present
            update_cache: true
            cache_valid_time: "{{ nccl_network_apt_cache_valid_time }}"
            install_recommends: false
            lock_timeout: "{{ nccl_network_apt_lock_timeout }}"

        - name: Create the folder for GDRCopy
          ansible.builtin.file:
            path: "{{ nccl_network_gdrcopy_work_dir }}/{{ nccl_network_gdrcopy_version }}"
            state: directory
            owner: root
            group: root
            mode: "0755"

        - name: Download GDRCopy
          ansible.builtin.get_url:
            url: "{{ nccl_network_gdrcopy_url }}"
            dest: "{{ nccl_network_gdrcopy_work_dir }}/{{ nccl_network_gdrcopy_version }}/gdrcopy.tar.gz"
            checksum: "sha256:{{ nccl_network_gdrcopy_sha256 }}"
            owner: root
            group: root
            mode: "0644"

        - name: Unpack GDRCopy
          ansible.builtin.unarchive:
            src: "{{ nccl_network_gdrcopy_work_dir }}/{{ nccl_network_gdrcopy_version }}/gdrcopy.tar.gz"
            dest: "{{ nccl_network_gdrcopy_work_dir }}/{{ nccl_network_gdrcopy_version }}"
            remote_src: true
            creates: "{{ nccl_network_gdrcopy_packages_dir }}/build-deb-packages.sh"

        - name: Build the GDRCopy packages
          ansible.builtin.command:
            cmd: ./build-deb-packages.sh
            chdir: "{{ nccl_network_gdrcopy_packages_dir }}"
          environment:
            CUDA: "{{ nccl_network_gdrcopy_cuda_home }}"
          changed_when: true

        - name: Find the built packages
          ansible.builtin.find:
            paths: "{{ nccl_network_gdrcopy_packages_dir }}"
            patterns: "*.deb"
          register: nccl_network_gdrcopy_debs

        # One package at a time, in AWS's order; the file names carry the platform and CUDA version
        # (gdrcopy-tests_<version>_<arch>.<platform>+cuda<X.Y>.deb), so they are matched by name.
        - name: Install the GDRCopy packages
          ansible.builtin.command:
            argv:
              - dpkg
              - -i
              - "{{ nccl_network_gdrcopy_debs.files | map(attribute='path') | select('search', '/' ~ item ~ '_[^/]*[.]deb$') | first }}"
          loop: "{{ nccl_network_gdrcopy_packages }}"
          changed_when: true

        - name: Mark the GDRCopy release installed
          ansible.builtin.copy:
            content: "{{ nccl_network_gdrcopy_url }} sha256:{{ nccl_network_gdrcopy_sha256 }}\n"
            dest: "{{ nccl_network_gdrcopy_work_dir }}/{{ nccl_network_gdrcopy_version }}/installed"
            owner: root
            group: root
            mode: "0644"

# The init script of gdrdrv-dkms loads gdrdrv once nvidia is loaded and creates /dev/gdrdrv
# (AWS ParallelCluster enables and starts it the same way); play 05 checks both.
- name: Load gdrdrv now and at boot
  ansible.builtin.systemd:
    name: "{{ nccl_network_gdrcopy_service }}"
    enabled: true
    state: started
  when:
    - nccl_network_gdrcopy | bool
    - nccl_network_live_host | bool
  tags: [hardware]

</#if>
- name: Install the EFA software
  when: nccl_network_fabric == 'efa'
  tags: [network]
  block:
    - name: Create the folder for the EFA installer
      ansible.builtin.file:
        path: "{{ nccl_network_efa_work_dir }}/{{ nccl_network_efa_installer_version }}"
        state: directory
        owner: root
        group: root
        mode: "0755"

    - name: Download the EFA installer
      ansible.builtin.get_url:
        url: "{{ nccl_network_efa_installer_url }}"
        dest: "{{ nccl_network_efa_work_dir }}/{{ nccl_network_efa_installer_version }}/aws-efa-installer.tar.gz"
        checksum: "sha256:{{ nccl_network_efa_installer_sha256 }}"
        owner: root
        group: root
        mode: "0644"

    - name: Unpack the EFA installer
      ansible.builtin.unarchive:
        src: "{{ nccl_network_efa_work_dir }}/{{ nccl_network_efa_installer_version }}/aws-efa-installer.tar.gz"
        dest: "{{ nccl_network_efa_work_dir }}/{{ nccl_network_efa_installer_version }}"
        remote_src: true
        creates: "{{ nccl_network_efa_work_dir }}/{{ nccl_network_efa_installer_version }}/aws-efa-installer/efa_installer.sh"

    # The marker is written only when the installer succeeded; a new version runs it again.
    - name: Run the EFA installer
      ansible.builtin.shell:
        cmd: ./efa_installer.sh -y && touch ../installed
        chdir: "{{ nccl_network_efa_work_dir }}/{{ nccl_network_efa_installer_version }}/aws-efa-installer"
        creates: "{{ nccl_network_efa_work_dir }}/{{ nccl_network_efa_installer_version }}/installed"
      changed_when: true

- name: Install the RDMA user-space packages
  ansible.builtin.apt:
    name: "{{ nccl_network_rdma_packages }}"
    state: present
    update_cache: true
    cache_valid_time: "{{ nccl_network_apt_cache_valid_time }}"
    install_recommends: false
    lock_timeout: "{{ nccl_network_apt_lock_timeout }}"
  when: nccl_network_fabric in ['infiniband', 'roce']
  tags: [network]

# nvidia-peermem registers with the peer-memory API that only NVIDIA's MLNX_OFED/DOCA-OFED
# ib_core provides; against Ubuntu's own RDMA stack it refuses to load ("Unknown symbol
# ib_register_peer_memory_client", https://github.com/Mellanox/nv_peer_memory/issues/84). Without
# OFED, NCCL reaches GPUDirect RDMA through DMA-BUF instead (open kernel modules and a recent kernel,
# https://github.com/NVIDIA/nccl/issues/1474; NVIDIA recommends DMA-BUF over nvidia-peermem,
# https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-rdma.html).
# OFED installs its kernel headers under /usr/src/ofa_kernel.
- name: Look for MLNX_OFED or DOCA-OFED, which nvidia-peermem needs
  ansible.builtin.stat:
    path: /usr/src/ofa_kernel
  register: nccl_network_ofed
  when: nccl_network_peermem | bool

- name: Load nvidia-peermem at boot for GPUDirect RDMA
  ansible.builtin.copy:
    dest: /etc/modules-load.d/nvidia-peermem.conf
    content: |
      # Managed by Ansible (gpugen role nccl_network).
      nvidia-peermem
    owner: root
    group: root
    mode: "0644"
  when:
    - nccl_network_peermem | bool
    - nccl_network_ofed.stat.exists

- name: Leave nvidia-peermem out without OFED (NCCL uses DMA-BUF)
  ansible.builtin.file:
    path: /etc/modules-load.d/nvidia-peermem.conf
    state: absent
  when: not (nccl_network_peermem | bool and nccl_network_ofed.stat.exists)

- name: Load nvidia-peermem now
  community.general.modprobe:
    name: nvidia-peermem
    state: present
  when:
    - nccl_network_peermem | bool
    - nccl_network_ofed.stat.exists
    - nccl_network_live_host | bool
  tags: [hardware]
