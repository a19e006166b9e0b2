[=header]
---
# Role nccl_network (play 04): /etc/nccl.conf and the same variables for login shells, and the
# software of the inter-node fabric: the EFA installer (libfabric, aws-ofi-nccl, Open MPI) on
# EFA; rdma-core and nvidia-peermem on InfiniBand and RoCE.

# efa, infiniband, roce or tcp.
nccl_network_fabric: tcp
# NCCL variables from the spec (NAME: VALUE).
nccl_network_env: {}

# Per-fabric variables, applied under nccl_network_env (the spec wins). Deliberately empty:
#   efa:  aws-ofi-nccl sets its own per-platform defaults; FI_PROVIDER=efa, NCCL_PROTO=simple and
#         FI_EFA_USE_DEVICE_RDMA=1 are obsolete with aws-ofi-nccl >= 1.7 / libfabric >= 1.18, and
#         setting NCCL_ALGO or NCCL_PROTO makes the plugin's tuner step aside.
#   infiniband, roce: NCCL finds the HCAs itself; NCCL_IB_DISABLE=1 would turn off IB *and* RoCE.
nccl_network_fabric_env:
  efa: {}
  infiniband: {}
  roce: {}
  tcp: {}
nccl_network_env_effective: "{{ nccl_network_fabric_env[nccl_network_fabric] | default({}) | combine(nccl_network_env) }}"

# NCCL reads NAME=VALUE lines from this file (after ~/.nccl.conf; the environment wins).
nccl_network_conf_file: /etc/nccl.conf
# The same variables for login shells (exported, shell-quoted).
nccl_network_profile_file: /etc/profile.d/nccl.sh

# The EFA installer, pinned by version and checksum (the checksum AWS ParallelCluster pins for
# 1.38.1). It installs the EFA kernel module, libfabric, aws-ofi-nccl and Open MPI.
nccl_network_efa_installer_version: "1.38.1"
nccl_network_efa_installer_sha256: 83923374afd388b1cfcf4b3a21a2b1ba7cf46a01a587f7b519b8386cb95e4f81
nccl_network_efa_installer_url: https://efa-installer.amazonaws.com/aws-efa-installer-{{ nccl_network_efa_installer_version }}.tar.gz
nccl_network_efa_work_dir: /var/cache/gpugen/efa

# InfiniBand and RoCE: user-space verbs, and nvidia-peermem (shipped with the driver) loaded at
# boot for GPUDirect RDMA.
nccl_network_rdma_packages:
  - rdma-core
  - ibverbs-providers
  - ibverbs-utils
  - infiniband-diags
nccl_network_peermem: "{{ nccl_network_fabric in ['infiniband', 'roce'] }}"
nccl_network_apt_cache_valid_time: 3600

# The node's configuration baseline, read back as ansible_local.gpugen (`gpugen drift` compares it
# with the spec). Play 05 adds validated_at after a validation that passed.
nccl_network_fact_dir: /etc/ansible/facts.d
# NCCL's variables as one hash: sha256 of the sorted "NAME=VALUE\n" lines. The executable fact
# gpugen_nccl.fact computes the same hash from /etc/nccl.conf each time facts are gathered, so a
# hand-edited file shows up as ansible_local.gpugen_nccl.nccl_env_sha256 differing from it.
nccl_network_env_sha256: >-
  {{ nccl_network_env_effective | dictsort | map('join', '=') | map('regex_replace', '$', '\n') | join('') | hash('sha256') }}
nccl_network_baseline:
  gpugen_spec_sha256: "{{ gpugen_spec_sha256 | default('') }}"
  cluster: "{{ gpugen_cluster | default('') }}"
  environment: "{{ gpugen_environment | default('') }}"
  pool: "{{ gpugen_pool | default('') }}"
  driver: "{{ nvidia_driver_version | default('') }}"
  cuda: "{{ nvidia_driver_cuda_version | default('') }}"
  container_toolkit: "{{ container_runtime_toolkit_version | default('') }}"
  nccl_env_sha256: "{{ nccl_network_env_sha256 }}"

# False when the node is reached through a chroot: no kernel module is loaded there.
nccl_network_live_host: >-
  {{ gpugen_live_host | default(ansible_connection | default('ssh') not in ['chroot', 'community.general.chroot']) }}
