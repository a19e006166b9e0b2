[=header]
---
# Role validation (play 05): proves each node works before it takes jobs. Checks the installed
# versions against the spec, burns the GPUs in, measures all-reduce bus bandwidth with
# nccl-tests and runs DCGM's diagnostics. Writes a JSON report per host, fetches it to the
# controller (reports/<host>.json), prints a summary table, then fails the hosts with a failed
# check. A check whose tasks were skipped (by tag) is reported as skipped.

# What the node should have, from the spec.
validation_gpu_count: 0
validation_compute_capability: ""
validation_fabric: tcp
validation_efa_interfaces: 0
validation_expected_driver_version: ""
validation_expected_cuda_version: ""
validation_expected_container_toolkit_version: ""
validation_container_toolkit_packages:
  - nvidia-container-toolkit
  - nvidia-container-toolkit-base
  - libnvidia-container-tools
  - libnvidia-container1

# Burn-in: gpu-burn for this many seconds, built for the GPU's compute capability.
validation_gpu_burn_seconds: 120
validation_gpu_burn_repo: https://github.com/wilicc/gpu-burn.git
# gpu-burn has no release tags: a commit of its default branch.
validation_gpu_burn_version: 00a314689638d79424dd6a2f971bc8b3462df0f4

# DCGM diagnostics level: 1 (seconds), 2 (about 2 minutes), 3 (about 15 minutes), 4 (extended).
validation_dcgm_diag_level: 1

# nccl-tests all_reduce_perf from 8 bytes up to validation_nccl_max_bytes. The bus bandwidth at
# the largest size is compared with validation_nccl_min_bus_bandwidth_gbps (null: report only).
validation_nccl_tests_repo: https://github.com/NVIDIA/nccl-tests.git
validation_nccl_tests_version: v2.13.6
validation_nccl_max_bytes: 8G
validation_nccl_min_bus_bandwidth_gbps: null
# With more than one host, also all_reduce_perf across all of them over MPI (from the first
# host, which reaches the others by SSH as root with the cluster's MPI key). Two-node busbw can
# exceed the link rate (tree algorithms, https://github.com/NVIDIA/nccl-tests/issues/22), so the
# multi-node figure has its own threshold, null by default.
validation_nccl_multi_node: "{{ ansible_play_hosts | length > 1 }}"
validation_nccl_min_multi_node_bus_bandwidth_gbps: null
# The transport NCCL must report ("Using network ..."): a silent fallback to TCP sockets is a
# failure on EFA, InfiniBand and RoCE.
validation_nccl_network_by_fabric:
  efa: Libfabric
  infiniband: IB
  roce: IB
  tcp: Socket

# Build inputs on the node.
validation_cuda_home: "/usr/local/cuda-{{ validation_expected_cuda_version }}"
validation_mpi_home: >-
  {{ '/opt/amazon/openmpi' if validation_fabric == 'efa' else '/usr/lib/' ~ ansible_facts['architecture'] ~ '-linux-gnu/openmpi' }}
validation_ld_library_path: >-
  {{ '/opt/amazon/ofi-nccl/lib/' ~ ansible_facts['architecture'] ~ '-linux-gnu:/opt/amazon/ofi-nccl/lib:/opt/amazon/efa/lib:'
     if validation_fabric == 'efa' else '' }}{{ validation_mpi_home }}/lib:{{ validation_cuda_home }}/lib64
# NCCL from NVIDIA's repository, built for the spec's CUDA version.
validation_packages: >-
  {{ ['git', 'make', 'g++',
      'libnccl2=*+cuda' ~ validation_expected_cuda_version,
      'libnccl-dev=*+cuda' ~ validation_expected_cuda_version]
     + ([] if validation_fabric == 'efa' else ['openmpi-bin', 'libopenmpi-dev']) }}
validation_work_dir: /var/cache/gpugen/validation

# The node's baseline fact (written by play 04): a passing validation adds validated_at to it.
validation_fact_file: /etc/ansible/facts.d/gpugen.fact

# Where the report is written on the node, and fetched to on the controller.
validation_report_file: /var/lib/gpugen/validation-report.json
validation_report_dir: "{{ playbook_dir }}/reports"

# False when the node is reached through a chroot: nothing is measured there.
validation_live_host: >-
  {{ gpugen_live_host | default(ansible_connection | default('ssh') not in ['chroot', 'community.general.chroot']) }}

# SSH for mpirun: the cluster's key, generated on the controller at run time (ansible/.mpi-ssh/,
# in .gitignore), its copy on each node, and the known_hosts file built from the play's hosts and
# each node's host key.
validation_mpi_key_dir: "{{ playbook_dir }}/.mpi-ssh"
validation_mpi_identity: /root/.ssh/gpugen_mpi_ed25519
validation_mpi_known_hosts: /etc/ssh/gpugen_mpi_known_hosts
validation_ssh_host_key: /etc/ssh/ssh_host_ed25519_key.pub
# Open MPI's rsh launcher runs `ssh <these> HOST orted ...` (Open MPI's plm_rsh_args).
validation_mpi_ssh_args:
  - -i
  - "{{ validation_mpi_identity }}"
  - -o
  - IdentitiesOnly=yes
  - -o
  - BatchMode=yes
  - -o
  - StrictHostKeyChecking=yes
  - -o
  - "UserKnownHostsFile={{ validation_mpi_known_hosts }}"

# Open MPI options for the multi-node run (bootstrap over TCP; NCCL carries the data itself).
validation_mpirun_args:
  - --bind-to
  - none
  - --mca
  - pml
  - ^cm
  - --mca
  - btl
  - tcp,self
  - --mca
  - btl_tcp_if_exclude
  - lo,docker0

# The checks, in report order.
validation_check_names:
  - driver_version
  - gpu_count
  - persistence_mode
  - cuda_toolkit
  - container_toolkit
  - efa_interfaces
  - gpu_burn
  - nccl_all_reduce
  - nccl_all_reduce_multi_node
  - dcgm_diag
