[=header]
---
- name: Start with no results
  ansible.builtin.set_fact:
    validation_results: {}

- name: Compare the node with the spec
  tags: [hardware]
  block:
    - name: Gather the installed packages
      ansible.builtin.package_facts:
        manager: apt

    - name: Query the driver version of every GPU
      ansible.builtin.command:
        cmd: nvidia-smi --query-gpu=driver_version --format=csv,noheader
      register: validation_smi
      changed_when: false
      failed_when: false

    # Persistence mode keeps the driver loaded between jobs; nvidia_driver's drop-in turns it on
    # (https://docs.nvidia.com/deploy/driver-persistence/index.html).
    - name: Query the persistence mode of every GPU
      ansible.builtin.command:
        cmd: nvidia-smi --query-gpu=persistence_mode --format=csv,noheader
      register: validation_smi_persistence
      changed_when: false
      failed_when: false

    # Fabric Manager registers every GPU with the NVSwitch fabric; until it has, CUDA on the node
    # fails. nvidia-smi reports each GPU's fabric state and status (Completed, Success once done).
    - name: Query the NVSwitch fabric state of every GPU
      ansible.builtin.command:
        cmd: nvidia-smi --query-gpu=fabric.state,fabric.status --format=csv,noheader
      register: validation_smi_fabric
      changed_when: false
      failed_when: false
      when: validation_fabric_manager | bool

    - name: Count the EFA devices
      ansible.builtin.find:
        paths: /sys/class/infiniband
        file_type: any
      register: validation_efa_devices
      when: validation_fabric == 'efa'

    # GDRCopy on EFA pools (play 04): gdrdrv loaded and its device node there, which is what
    # libgdrapi opens (GDRCopy's README: "/dev/gdrdrv should now exist").
    - name: Look for the loaded gdrdrv module
      ansible.builtin.stat:
        path: /sys/module/gdrdrv
      register: validation_gdrdrv_module
      when: validation_gdrcopy | bool

    - name: Look for the gdrdrv device
      ansible.builtin.stat:
        path: /dev/gdrdrv
      register: validation_gdrdrv_device
      when: validation_gdrcopy | bool

    - name: Record the version and device checks
      ansible.builtin.set_fact:
        validation_results: "{{ validation_results | combine(validation_version_checks) }}"
        validation_gpus_seen: "{{ validation_drivers_seen | length }}"
      vars:
        validation_installed: >-
          {{ dict(ansible_facts.packages.keys() | zip(ansible_facts.packages.values() | map('first') | map(attribute='version'))) }}
        validation_drivers_seen: "{{ validation_smi.stdout_lines | default([]) | map('trim') | list }}"
        validation_persistence_seen: "{{ validation_smi_persistence.stdout_lines | default([]) | map('trim') | list }}"
        validation_fabric_seen: "{{ validation_smi_fabric.stdout_lines | default([]) | map('trim') | list }}"
        validation_cuda_package: "cuda-toolkit-{{ validation_expected_cuda_version | replace('.', '-') }}"
        validation_toolkit_seen: >-
          {{ validation_container_toolkit_packages
             | map('extract', dict(validation_container_toolkit_packages | product(['not installed'])) | combine(validation_installed))
             | list }}
        validation_version_checks:
          driver_version:
            status: "{{ 'pass' if validation_drivers_seen | unique | list == [validation_expected_driver_version] else 'fail' }}"
            expected: "{{ validation_expected_driver_version }}"
            measured: >-
              {{ validation_drivers_seen | unique | join(', ') if validation_smi.rc | default(1) == 0
                 else 'nvidia-smi failed: ' ~ (validation_smi.stderr | default(validation_smi.msg | default(''))) }}
          gpu_count:
            status: >-
              {{ 'skipped' if validation_gpu_count | int == 0
                 else 'pass' if validation_drivers_seen | length == validation_gpu_count | int else 'fail' }}
            expected: "{{ validation_gpu_count | int }}"
            measured: "{{ validation_drivers_seen | length }}"
          persistence_mode:
            status: >-
              {{ 'pass' if validation_persistence_seen | length > 0
                 and validation_persistence_seen | unique | list == ['Enabled'] else 'fail' }}
            expected: "Enabled on every GPU"
            measured: >-
              {{ validation_persistence_seen | join(', ') if validation_smi_persistence.rc | default(1) == 0
                 else 'nvidia-smi failed: ' ~ (validation_smi_persistence.stderr | default(validation_smi_persistence.msg | default(''))) }}
          cuda_toolkit:
            status: "{{ 'pass' if validation_cuda_package in validation_installed else 'fail' }}"
            expected: "{{ validation_cuda_package }}"
            measured: "{{ validation_installed[validation_cuda_package] | default('not installed') }}"
          container_toolkit:
            status: >-
              {{ 'pass' if validation_toolkit_seen
                 | reject('match', '^' ~ (validation_expected_container_toolkit_version | regex_escape) ~ '-') | list | length == 0
                 else 'fail' }}
            expected: "{{ validation_expected_container_toolkit_version }}"
            measured: "{{ validation_container_toolkit_packages | zip(validation_toolkit_seen) | map('join', '=') | join(', ') }}"
          gdrdrv:
            status: >-
              {{ 'skipped' if not validation_gdrcopy | bool
                 else 'pass' if validation_gdrdrv_module.stat.isdir | default(false)
                 and validation_gdrdrv_device.stat.ischr | default(false) else 'fail' }}
            expected: "gdrdrv loaded, /dev/gdrdrv a character device"
            measured: >-
              {{ 'not checked' if not validation_gdrcopy | bool
                 else ('gdrdrv loaded' if validation_gdrdrv_module.stat.isdir | default(false) else 'gdrdrv not loaded')
                 ~ ', /dev/gdrdrv '
                 ~ ('a character device' if validation_gdrdrv_device.stat.ischr | default(false)
                    else 'missing' if not validation_gdrdrv_device.stat.exists | default(false)
                    else 'not a character device') }}
          fabric_manager:
            status: >-
              {{ 'skipped' if not validation_fabric_manager | bool
                 else 'pass' if validation_fabric_seen | length > 0
                 and validation_fabric_seen | unique | list == ['Completed, Success'] else 'fail' }}
            expected: "{{ 'Completed, Success on every GPU' if validation_fabric_manager | bool else 'not checked: no NVSwitch fabric state on these GPUs' }}"
            measured: >-
              {{ 'not checked' if not validation_fabric_manager | bool
                 else validation_fabric_seen | unique | join('; ') if validation_smi_fabric.rc | default(1) == 0
                 else 'nvidia-smi failed: ' ~ (validation_smi_fabric.stderr | default(validation_smi_fabric.msg | default(''))) }}
          efa_interfaces:
            status: >-
              {{ 'skipped' if validation_fabric != 'efa' or validation_efa_interfaces | int == 0
                 else 'pass' if validation_efa_devices.matched | default(0) == validation_efa_interfaces | int else 'fail' }}
            expected: "{{ validation_efa_interfaces | int }}"
            measured: "{{ validation_efa_devices.matched | default(0) }}"

<#if ansible.lustre.enabled>
- name: Check the Lustre mount
  ansible.builtin.include_role:
    name: lustre_client
    tasks_from: validate
  tags: [network]

</#if>
- name: Burn the node in
  when: validation_live_host | bool
  tags: [burn-in, hardware]
  block:
    - name: Install what the validation tools are built with
      ansible.builtin.apt:
        name: "{{ validation_packages }}"
        state: present
        update_cache: true
        cache_valid_time: 3600
        install_recommends: false
        lock_timeout: "{{ validation_apt_lock_timeout }}"
      tags: [network]

    - name: Fetch gpu-burn
      ansible.builtin.git:
        repo: "{{ validation_gpu_burn_repo }}"
        dest: "{{ validation_work_dir }}/gpu-burn"
        version: "{{ validation_gpu_burn_version }}"
      tags: [network]

    - name: Fetch nccl-tests
      ansible.builtin.git:
        repo: "{{ validation_nccl_tests_repo }}"
        dest: "{{ validation_work_dir }}/nccl-tests"
        version: "{{ validation_nccl_tests_version }}"
      tags: [network]

    - name: Query the compute capability the spec does not know
      ansible.builtin.command:
        cmd: nvidia-smi --query-gpu=compute_cap --format=csv,noheader
      register: validation_smi_compute
      changed_when: false
      when: validation_compute_capability | length == 0

    - name: Settle the compute capability to build for
      ansible.builtin.set_fact:
        validation_compute: >-
          {{ validation_compute_capability if validation_compute_capability | length > 0
             else validation_smi_compute.stdout_lines | first | trim }}

    - name: Build gpu-burn for the GPU's compute capability
      community.general.make:
        chdir: "{{ validation_work_dir }}/gpu-burn"
        target: gpu_burn
        params:
          COMPUTE: "{{ validation_compute }}"
          CUDAPATH: "{{ validation_cuda_home }}"

    - name: Build nccl-tests with MPI
      community.general.make:
        chdir: "{{ validation_work_dir }}/nccl-tests/src"
        target: ../build/all_reduce_perf
        jobs: 8
        params:
          MPI: "1"
          MPI_HOME: "{{ validation_mpi_home }}"
          CUDA_HOME: "{{ validation_cuda_home }}"
          NVCC_GENCODE: "-gencode=arch=compute_{{ validation_compute | replace('.', '') }},code=sm_{{ validation_compute | replace('.', '') }}"

    - name: Burn the GPUs in
      ansible.builtin.command:
        cmd: "./gpu_burn {{ validation_gpu_burn_seconds | int }}"
        chdir: "{{ validation_work_dir }}/gpu-burn"
      register: validation_gpu_burn
      changed_when: false
      failed_when: false
      timeout: "{{ validation_gpu_burn_seconds | int + 600 }}"

    - name: Measure the all-reduce bus bandwidth of the node
      ansible.builtin.command:
        argv:
          - "{{ validation_work_dir }}/nccl-tests/build/all_reduce_perf"
          - -b
          - "{{ validation_nccl_min_bytes }}"
          - -e
          - "{{ validation_nccl_max_bytes }}"
          - -f
          - "2"
          - -g
          - "{{ validation_gpus_seen }}"
      environment:
        NCCL_DEBUG: INFO
        NCCL_DEBUG_SUBSYS: INIT,NET
        LD_LIBRARY_PATH: "{{ validation_ld_library_path }}"
      register: validation_nccl
      changed_when: false
      failed_when: false
      timeout: 3600

    - name: Run the DCGM diagnostics
      ansible.builtin.command:
        cmd: "dcgmi diag -r {{ validation_dcgm_diag_level | int }}"
      register: validation_dcgm
      changed_when: false
      failed_when: false
      timeout: 7200

    - name: Record the burn-in results
      ansible.builtin.set_fact:
        validation_results: >-
          {{ validation_results | combine(validation_burn_checks,
             {'nccl_all_reduce': {'busbw_gbps': validation_nccl_busbw | float}}, recursive=true) }}
      vars:
        validation_burn_ok: "{{ validation_gpu_burn.stdout | default('') | regex_findall('GPU [0-9]+: OK') | length }}"
        validation_nccl_row: >-
          {{ validation_nccl.stdout_lines | default([]) | select('match', '^ *[0-9]+ +[0-9]+ +[a-z0-9_]+ ') | map('split') | list | last | default([]) }}
        validation_nccl_busbw: "{{ validation_nccl_row[7] | default('0') | float }}"
        validation_nccl_network: "{{ validation_nccl_network_by_fabric[validation_fabric] }}"
        validation_burn_checks:
          gpu_burn:
            status: >-
              {{ 'pass' if validation_gpu_burn.rc | default(1) == 0 and validation_burn_ok | int == validation_gpus_seen | int
                 else 'fail' }}
            expected: "{{ validation_gpus_seen }} GPUs OK after {{ validation_gpu_burn_seconds | int }} s"
            measured: "{{ validation_burn_ok }} GPUs OK (exit {{ validation_gpu_burn.rc | default('none') }})"
          nccl_all_reduce:
            status: >-
              {{ 'pass' if validation_nccl.rc | default(1) == 0
                 and validation_nccl_row | length > 8
                 and validation_nccl_row[8] in ['0', 'N/A']
                 and validation_nccl.stdout is search('Using network [A-Za-z ]*' ~ validation_nccl_network)
                 and (validation_nccl_min_bus_bandwidth_gbps is none
                      or validation_nccl_busbw | float >= validation_nccl_min_bus_bandwidth_gbps | float)
                 else 'fail' }}
            expected: >-
              {{ ('busbw >= ' ~ validation_nccl_min_bus_bandwidth_gbps ~ ' GB/s'
                  if validation_nccl_min_bus_bandwidth_gbps is not none else 'busbw reported')
                 ~ ' at ' ~ validation_nccl_max_bytes ~ ', network ' ~ validation_nccl_network }}
            measured: >-
              {{ (validation_nccl_busbw ~ ' GB/s busbw at ' ~ validation_nccl_row[0] ~ ' B, '
                  ~ validation_nccl_row[8] ~ ' wrong' if validation_nccl_row | length > 8 else 'no result rows')
                 ~ ' (exit ' ~ validation_nccl.rc | default('none') ~ ')' }}
          dcgm_diag:
            status: "{{ 'pass' if validation_dcgm.rc | default(1) == 0 else 'fail' }}"
            expected: "dcgmi diag -r {{ validation_dcgm_diag_level | int }} passes"
            measured: >-
              {{ 'exit ' ~ validation_dcgm.rc | default('none') ~ '; '
                 ~ (validation_dcgm.stdout_lines | default([]) | select('search', 'Fail') | join('; ') or 'no failures') }}

    # gpu-burn prints each GPU's rate as "N (R Gflop/s)" on its progress line (wilicc/gpu-burn
    # gpu_burn-drv.cpp, listenClients); the last line's slowest GPU is the node's figure, since a
    # synchronous job runs at the pace of its slowest GPU.
    - name: Record gpu-burn's throughput
      ansible.builtin.set_fact:
        validation_results: >-
          {{ validation_results | combine({'gpu_burn': {'gflops': validation_burn_gflops | min}}, recursive=true)
             if validation_burn_gflops | length > 0 else validation_results }}
      vars:
        validation_burn_last: >-
          {{ validation_gpu_burn.stdout | default('') | regex_findall("proc'd: [^\r\n]*") | last | default('') }}
        validation_burn_gflops: >-
          {{ validation_burn_last | regex_findall('\(([0-9.]+) Gflop/s\)') | map('float') | list }}

# mpirun starts the ranks on the other nodes over SSH as root. Ubuntu cloud images accept no
# root password and cloud-init's keys for root only print "Please login as ubuntu"
# (https://cloudinit.readthedocs.io/en/latest/reference/modules.html#set-passwords and
# disable_root), so the nodes get a key of their own: generated at run time on the controller
# (never in the render, never committed: .gitignore), authorized for root, and a known_hosts
# file built from the inventory's hosts and each node's host key, so no host key is accepted
# blindly (StrictHostKeyChecking=yes).
- name: Set up SSH between the nodes for mpirun
  when:
    - validation_live_host | bool
    - validation_nccl_multi_node | bool
  tags: [burn-in, hardware]
  block:
    - name: Create the controller's folder for the cluster's MPI key
      ansible.builtin.file:
        path: "{{ validation_mpi_key_dir }}"
        state: directory
        mode: "0700"
      delegate_to: localhost
      run_once: true
      become: false

    - name: Generate the cluster's MPI key on the controller
      community.crypto.openssh_keypair:
        path: "{{ validation_mpi_key_dir }}/id_ed25519"
        type: ed25519
        comment: "gpugen-mpi {{ gpugen_cluster | default('cluster') }}"
        mode: "0600"
      delegate_to: localhost
      run_once: true
      become: false

    - name: Create root's SSH folder
      ansible.builtin.file:
        path: /root/.ssh
        state: directory
        owner: root
        group: root
        mode: "0700"

    - name: Install the cluster's MPI key on the node
      ansible.builtin.copy:
        src: "{{ validation_mpi_key_dir }}/id_ed25519"
        dest: "{{ validation_mpi_identity }}"
        owner: root
        group: root
        mode: "0600"

    - name: Let the cluster's MPI key log in as root
      ansible.posix.authorized_key:
        user: root
        key: "{{ lookup('ansible.builtin.file', validation_mpi_key_dir ~ '/id_ed25519.pub') }}"
        state: present

    - name: Read the node's SSH host key
      ansible.builtin.slurp:
        src: "{{ validation_ssh_host_key }}"
      register: validation_host_key

    - name: Write the nodes' host keys as known_hosts
      ansible.builtin.copy:
        content: |
          # Managed by Ansible (gpugen role validation): the SSH host keys of the play's nodes, for mpirun.
          {% for host in ansible_play_hosts %}
          {{ hostvars[host].ansible_host | default(host) }} {{ (hostvars[host].validation_host_key.content | b64decode).split()[:2] | join(' ') }}
          {% endfor %}
        dest: "{{ validation_mpi_known_hosts }}"
        owner: root
        group: root
        mode: "0644"

# mpirun runs once per group (a pool's hosts in its placement group), from the group's first host,
# with that group's GPU count; every host then records its own group's result from that host (no
# run_once on set_fact, which Ansible would apply to every host of the batch, overwriting the
# other hosts' own checks with the first host's).
- name: Measure the all-reduce bus bandwidth across the nodes of each group
  when:
    - validation_live_host | bool
    - validation_nccl_multi_node | bool
  tags: [burn-in, hardware]
  vars:
    validation_nccl_leader: "{{ validation_nccl_group_hosts | first }}"
  block:
    - name: Look for mpirun on the group's first node
      ansible.builtin.stat:
        path: "{{ validation_mpi_home }}/bin/mpirun"
      register: validation_mpirun
      when: inventory_hostname == validation_nccl_leader

    - name: List the group's first node's addresses for Open MPI's bootstrap network
      ansible.builtin.command:
        argv: [ip, -o, addr, show]
      register: validation_ip_addr
      changed_when: false
      failed_when: false
      when: inventory_hostname == validation_nccl_leader

    - name: Show the group's first node's default route
      ansible.builtin.command:
        argv: [ip, -o, route, show, default]
      register: validation_ip_route
      changed_when: false
      failed_when: false
      when: inventory_hostname == validation_nccl_leader

    - name: Settle Open MPI's bootstrap network
      ansible.builtin.set_fact:
        validation_mpi_network: >-
          {{ validation_inet | selectattr(1, 'equalto', validation_iface) | map(attribute=3) | first | default('') }}
      vars:
        validation_inet: >-
          {{ validation_ip_addr.stdout_lines | default([]) | select('search', ' inet ') | map('split')
             | map('map', 'regex_replace', '@.*$', '') | map('list') | list }}
        validation_iface: >-
          {{ validation_bootstrap_interface if validation_bootstrap_interface | length > 0
             else (validation_inet | selectattr(3, 'match', (validation_host_address | regex_escape) ~ '/') | map(attribute=1) | first
                   | default(validation_ip_route.stdout_lines | default([]) | map('regex_search', ' dev [^ ]+') | select
                             | map('regex_replace', '^ dev ', '') | first | default(''))) }}
      when: inventory_hostname == validation_nccl_leader

    - name: Run all_reduce_perf over MPI on every node of the group
      ansible.builtin.command:
        argv: >-
          {{ [validation_mpi_home ~ '/bin/mpirun', '--allow-run-as-root', '--prefix', validation_mpi_home,
              '-np', (validation_nccl_group_hosts | length) * (validation_gpus_seen | int), '-N', validation_gpus_seen,
              '--host', validation_mpi_hosts | join(','),
              '--mca', 'plm_rsh_args', validation_mpi_ssh_args | join(' ')]
             + validation_mpirun_args
             + (['--mca', 'btl_tcp_if_include', validation_mpi_network, '--mca', 'oob_tcp_if_include', validation_mpi_network]
                if validation_mpi_network | default('') | length > 0 else validation_mpirun_fallback_if_args)
             + ['-x', 'NCCL_DEBUG=INFO', '-x', 'NCCL_DEBUG_SUBSYS=INIT,NET', '-x', 'LD_LIBRARY_PATH=' ~ validation_ld_library_path,
                validation_work_dir ~ '/nccl-tests/build/all_reduce_perf',
                '-b', validation_nccl_min_bytes, '-e', validation_nccl_max_bytes, '-f', '2', '-g', '1'] }}
      vars:
        validation_mpi_hosts: >-
          {{ validation_nccl_group_hosts | map('extract', hostvars) | map(attribute='ansible_host', default=none)
             | zip(validation_nccl_group_hosts) | map('select') | map('first') | map('regex_replace', '$', ':' ~ validation_gpus_seen) | list }}
      register: validation_nccl_multi
      changed_when: false
      failed_when: false
      timeout: 3600
      when: inventory_hostname == validation_nccl_leader and validation_mpirun.stat.exists

    - name: Record the multi-node result of the node's group
      ansible.builtin.set_fact:
        validation_results: >-
          {{ validation_results | combine({'nccl_all_reduce_multi_node': validation_multi_check},
             ({'nccl_all_reduce_multi_node': {'busbw_gbps': validation_multi_busbw | float}}
              if validation_leader_mpirun.stat.exists else {}), recursive=true) }}
      vars:
        validation_leader_mpirun: "{{ hostvars[validation_nccl_leader].validation_mpirun }}"
        validation_leader_run: "{{ hostvars[validation_nccl_leader].validation_nccl_multi }}"
        validation_multi_row: >-
          {{ validation_leader_run.stdout_lines | default([]) | select('match', '^ *[0-9]+ +[0-9]+ +[a-z0-9_]+ ') | map('split') | list | last | default([]) }}
        validation_multi_busbw: "{{ validation_multi_row[7] | default('0') | float }}"
        validation_multi_net: >-
          {{ validation_leader_run.stdout_lines | default([]) | select('search', validation_nccl_net_pattern) | list }}
        validation_multi_gdr: "{{ validation_multi_net | select('search', validation_nccl_gdr_pattern) | list }}"
        # Without mpirun (the fabric's MPI is not installed) the fabric was not tested: the report
        # says so, and no node fails for it.
        validation_multi_check:
          status: >-
            {{ 'not-tested' if not validation_leader_mpirun.stat.exists
               else 'pass' if validation_leader_run.rc | default(1) == 0
               and validation_multi_row | length > 8
               and validation_multi_row[8] in ['0', 'N/A']
               and validation_leader_run.stdout is search('Using network [A-Za-z ]*' ~ validation_nccl_network_by_fabric[validation_fabric])
               and (not validation_nccl_gdr_required | bool or validation_multi_gdr | length > 0)
               and (validation_nccl_min_multi_node_bus_bandwidth_gbps is none
                    or validation_multi_busbw | float >= validation_nccl_min_multi_node_bus_bandwidth_gbps | float)
               else 'fail' }}
          expected: >-
            {{ ('busbw >= ' ~ validation_nccl_min_multi_node_bus_bandwidth_gbps ~ ' GB/s'
                if validation_nccl_min_multi_node_bus_bandwidth_gbps is not none else 'busbw reported')
               ~ ' over ' ~ validation_nccl_group_hosts | length ~ ' nodes'
               ~ (', GPUDirect RDMA on NET/' ~ validation_nccl_net_name ~ ' (GDRDMA)'
                  if validation_nccl_gdr_required | bool else '') }}
          measured: >-
            {{ ('fabric not tested: no ' ~ validation_mpi_home ~ '/bin/mpirun on ' ~ validation_nccl_leader)
               if not validation_leader_mpirun.stat.exists
               else (validation_multi_busbw ~ ' GB/s busbw at ' ~ validation_multi_row[0] ~ ' B'
                     if validation_multi_row | length > 8 else 'no result rows')
               ~ ' (exit ' ~ validation_leader_run.rc | default('none') ~ ')'
               ~ ((', ' ~ validation_multi_gdr | length ~ ' of ' ~ validation_multi_net | length
                   ~ ' NET/' ~ validation_nccl_net_name ~ ' connections GDRDMA')
                  if validation_nccl_gdr_required | bool and validation_leader_mpirun.stat.exists else '')
               ~ ('' if validation_leader_run.rc | default(1) == 0
                  else ': ' ~ (validation_leader_run.stderr_lines | default([validation_leader_run.msg | default('')]) | last | default(''))) }}

- name: Compare each node with its pool's median
  ansible.builtin.include_tasks: outliers.yml

- name: Assemble the report
  ansible.builtin.set_fact:
    validation_report:
      host: "{{ inventory_hostname }}"
      passed: "{{ validation_checks.values() | selectattr('status', 'equalto', 'fail') | list | length == 0 }}"
      checks: "{{ validation_checks }}"
      cluster: "{{ gpugen_cluster | default('') }}"
      pool: "{{ gpugen_pool | default('') }}"
      spec_sha256: "{{ gpugen_spec_sha256 | default('') }}"
      validated_at: "{{ validation_run_at }}"
      versions: >-
        {{ validation_versions | dict2items | rejectattr('value', 'equalto', '') | items2dict }}
  vars:
    validation_versions:
      driver: >-
        {{ validation_smi.stdout_lines | default([]) | map('trim') | unique | join(', ')
           if validation_smi.rc | default(1) == 0 else '' }}
      cuda_toolkit: >-
        {{ (ansible_facts.packages | default({}))['cuda-toolkit-' ~ validation_expected_cuda_version | replace('.', '-')]
           | default([{}]) | map(attribute='version', default='') | first }}
      container_toolkit: >-
        {{ (ansible_facts.packages | default({}))['nvidia-container-toolkit'] | default([{}])
           | map(attribute='version', default='') | first }}
      kernel: "{{ ansible_facts.kernel | default('') }}"
    validation_checks: >-
<#if ansible.lustre.enabled>
      {{ dict((validation_check_names + ['lustre_mount']) | product([{'status': 'skipped'}])) | combine(validation_results) }}
<#else>
      {{ dict(validation_check_names | product([{'status': 'skipped'}])) | combine(validation_results) }}
</#if>

- name: Create the report folder on the node
  ansible.builtin.file:
    path: "{{ validation_report_file | dirname }}"
    state: directory
    owner: root
    group: root
    mode: "0755"

# The report records this run (its time among them): writing it is the run's output, not a change
# to the node, so a converged node reports changed=0 on every later run.
- name: Write the report on the node
  ansible.builtin.copy:
    content: "{{ validation_report | to_nice_json(indent=2) }}\n"
    dest: "{{ validation_report_file }}"
    owner: root
    group: root
    mode: "0644"
  changed_when: false

- name: Fetch the report to the controller
  ansible.builtin.fetch:
    src: "{{ validation_report_file }}"
    dest: "{{ validation_report_dir }}/{{ inventory_hostname | regex_replace('[^A-Za-z0-9_.-]', '_') | regex_replace('^[.]', '_') }}.json"
    flat: true
  changed_when: false

- name: Print the validation summary
  ansible.builtin.debug:
    msg: "{{ validation_summary.splitlines() }}"
  run_once: true
  vars:
    validation_row: "%-32s %-6s %-12s %-9s %-20s %-8s %-10s"
    validation_summary: |-
      {{ validation_row | format('HOST', 'RESULT', 'DRIVER', 'GPU-BURN', 'ALL-REDUCE', 'DCGM', 'MULTI-NODE') }}
      {% for host in ansible_play_hosts_all %}
      {% set report = hostvars[host].validation_report | default({'checks': {}}) %}
      {% set checks = report.checks %}
      {{ validation_row | format(host,
           'pass' if report.passed | default(false) else 'FAIL' if report.passed is defined else 'none',
           checks.driver_version.measured if checks.driver_version.status | default('') == 'pass'
             else checks.driver_version.status | default('-'),
           checks.gpu_burn.status | default('-'),
           (checks.nccl_all_reduce.busbw_gbps ~ ' GB/s busbw') if checks.nccl_all_reduce.busbw_gbps is defined
             else checks.nccl_all_reduce.status | default('-'),
           checks.dcgm_diag.status | default('-'),
           checks.nccl_all_reduce_multi_node.status | default('-')) }}
      {% endfor %}

- name: Print the outliers
  ansible.builtin.debug:
    msg: "{{ validation_outlier_lines if validation_outlier_lines | length > 0 else [validation_no_outliers] }}"
  run_once: true
  vars:
    validation_outlier_hosts: >-
      {{ ansible_play_hosts_all | select('in', hostvars) | map('extract', hostvars)
         | selectattr('validation_report', 'defined') | map(attribute='validation_report')
         | selectattr('checks.outlier.status', 'defined')
         | selectattr('checks.outlier.status', 'in', ['warn', 'fail']) | list }}
    validation_outlier_lines: >-
      {% set lines = [] %}{% for r in validation_outlier_hosts %}{% set _ = lines.append(
      ('OUTLIER ' if r.checks.outlier.status == 'fail' else 'outlier ') ~ r.host ~ ' (pool ' ~ r.pool ~ '): '
      ~ r.checks.outlier.measured ~ '; expected ' ~ r.checks.outlier.expected) %}{% endfor %}{{ lines }}
    validation_no_outliers: >-
      no outliers: no node is more than its pool's validation.outlierPercent below the pool's median
      (pools with 3 or more measured nodes)

- name: Draw the fleet's results page and JUnit file
  when: validation_results_page | bool
  delegate_to: localhost
  run_once: true
  become: false
  block:
    - name: Run gpugen report on the reports folder
      ansible.builtin.command:
        argv: "{{ validation_gpugen + ['report', '--reports', validation_report_dir] }}"
      register: validation_page
      changed_when: validation_page.rc | default(1) == 0
      # The verdicts are in the reports already; a missing page is said below, not a node failure.
      failed_when: false

    - name: Say where the page is, or why it is missing
      ansible.builtin.debug:
        msg: >-
          {{ validation_page.stdout | default('') | trim
             if validation_page.rc | default(1) == 0
             else 'the results page was not written (' ~ (validation_page.stderr | default(validation_page.msg | default('')) | trim)
                  ~ '): put gpugen on PATH or set GPUGEN_JAR to its jar, then run: gpugen report --reports '
                  ~ validation_report_dir }}
<#if ansible.validationState>

- name: Put the verdict on the node in Kubernetes
  ansible.builtin.import_role:
    name: validation_scheduling
    tasks_from: result
  vars:
    validation_scheduling_report: "{{ validation_report }}"
  tags: [kubernetes]
</#if>

- name: Fail the node when a check failed
  ansible.builtin.assert:
    that:
      - validation_report.passed | bool
    fail_msg: "{{ validation_failures | trim }}"
    quiet: true
  vars:
    validation_failures: >-
      {% for name, check in validation_report.checks | dictsort if check.status == 'fail' %}
      {{ name }}: measured {{ check.measured }}, expected {{ check.expected }}.
      {% endfor %}

# Reached only when no check failed. A run whose checks were all skipped (by tag) validated
# nothing, so it leaves the time of the last real validation alone.
- name: Record the successful validation in the baseline fact
  when: validation_report.checks.values() | selectattr('status', 'equalto', 'pass') | list | length > 0
  block:
    - name: Create the local facts folder
      ansible.builtin.file:
        path: "{{ validation_fact_file | dirname }}"
        state: directory
        owner: root
        group: root
        mode: "0755"

    - name: Read the baseline fact
      ansible.builtin.slurp:
        src: "{{ validation_fact_file }}"
      register: validation_old_fact
      failed_when: false

    - name: Write the time of the validation into the baseline fact
      ansible.builtin.copy:
        content: "{{ validation_old | combine({'validated_at': validation_now}) | to_nice_json(indent=2) }}\n"
        dest: "{{ validation_fact_file }}"
        owner: root
        group: root
        mode: "0644"
      vars:
        validation_old: >-
          {{ (validation_old_fact.content | b64decode | from_json) if validation_old_fact.content is defined else {} }}
        validation_now: "{{ now(utc=true).strftime('%Y-%m-%dT%H:%M:%SZ') }}"
