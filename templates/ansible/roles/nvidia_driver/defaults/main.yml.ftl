[=header]
---
# Role nvidia_driver (play 01): the NVIDIA data-center driver at exactly the spec's version, the
# CUDA toolkit, Fabric Manager on NVSwitch systems, the persistence daemon (persistence mode on)
# and DCGM, all from NVIDIA's CUDA apt repository. A cluster's values come from group_vars.

# The exact driver version (e.g. "580.95.05") and its branch ("580"). Required.
nvidia_driver_version: ""
nvidia_driver_branch: ""
# open or proprietary kernel modules: open on Turing and newer (required on Blackwell),
# proprietary on Volta and older.
nvidia_driver_kernel_modules: open
# Every package comes from NVIDIA's CUDA repository, which keeps every driver version of a branch
# (Ubuntu's -updates pocket keeps only the newest build, so an exact pin on Canonical's
# nvidia-driver-<branch>-server packages stops installing when the next build is published:
# https://github.com/aws-samples/aws-deep-learning-ami-ubuntu-dcv-desktop/issues/50).
# Names (NVIDIA driver installation guide, https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/kernel-modules.html
# and https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/recent-updates.html):
# up to branch 580 the branch is part of the name (nvidia-open-580, cuda-drivers-580 for the
# proprietary modules); from 590 the names carry no branch and the pinning package
# nvidia-driver-pinning-<branch> keeps apt on the branch.
nvidia_driver_unversioned_names: "{{ nvidia_driver_branch | int >= 590 }}"
nvidia_driver_package: >-
  {{ ('nvidia-open' if nvidia_driver_kernel_modules == 'open' else 'cuda-drivers')
     ~ ('' if nvidia_driver_unversioned_names | bool else '-' ~ nvidia_driver_branch) }}
nvidia_driver_pinning_package: "nvidia-driver-pinning-{{ nvidia_driver_branch }}"

# Fabric Manager, at exactly the driver's version, on NVSwitch systems (HGX: p4d, p5, p5e, p5en,
# p6-b200); it refuses to start with another driver version
# (https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html).
# libnvidia-nscq lets DCGM see the NVSwitches; it is named without a branch from 580 on
# (recent-updates.html above).
nvidia_driver_fabricmanager: false
nvidia_driver_fabricmanager_packages:
  - "nvidia-fabricmanager{{ '' if nvidia_driver_unversioned_names | bool else '-' ~ nvidia_driver_branch }}"
  - "libnvidia-nscq{{ '' if nvidia_driver_branch | int >= 580 else '-' ~ nvidia_driver_branch }}"

# How long apt waits for the dpkg lock: on a fresh Ubuntu node, unattended-upgrades holds it for
# minutes after the first boot (ansible.builtin.apt lock_timeout).
nvidia_driver_apt_lock_timeout: 900

# The CUDA toolkit: cuda-toolkit-X-Y only. The cuda and cuda-X-Y meta-packages pull in
# cuda-drivers, another driver than the one pinned here.
nvidia_driver_cuda_version: ""
nvidia_driver_cuda_package: ""

# DCGM 4, built for the CUDA major version of the driver (what nvidia-smi reports as "CUDA
# Version"), not the toolkit's: DCGM's installation guide picks
# datacenter-gpu-manager-4-cuda<major> from the driver
# (https://docs.nvidia.com/datacenter/dcgm/latest/user-guide/getting-started.html).
nvidia_driver_cuda_major: ""
nvidia_driver_dcgm_package: "datacenter-gpu-manager-4-cuda{{ nvidia_driver_cuda_major }}"

# Ubuntu's and NVIDIA's nvidia-persistenced.service start the daemon with --no-persistence-mode;
# this drop-in starts it with persistence mode on, so the GPUs stay initialised between jobs
# (https://docs.nvidia.com/deploy/driver-persistence/index.html; the same override as NVIDIA's
# own role, https://github.com/NVIDIA/ansible-role-nvidia-driver). Play 05 checks it.
nvidia_driver_persistenced_dropin: /etc/systemd/system/nvidia-persistenced.service.d/gpugen.conf
nvidia_driver_persistenced_command: /usr/bin/nvidia-persistenced --user nvidia-persistenced --persistence-mode --verbose

# Enabled at boot and started: the persistence daemon keeps the GPUs initialised between jobs;
# Fabric Manager must run before CUDA can use NVSwitch-connected GPUs; nvidia-dcgm runs the DCGM
# host engine (dcgmi).
nvidia_driver_services: >-
  {{ ['nvidia-persistenced.service']
     + (['nvidia-fabricmanager.service'] if nvidia_driver_fabricmanager | bool else [])
     + ['nvidia-dcgm.service'] }}

# NVIDIA's CUDA repository, set up through its keyring package.
# ubuntu2204, ubuntu2404 (Debian: debian12).
nvidia_driver_repo_distribution: >-
  {{ ansible_facts['distribution'] | lower }}{{ ansible_facts['distribution_version'] | replace('.', '')
     if ansible_facts['distribution'] == 'Ubuntu' else ansible_facts['distribution_major_version'] }}
nvidia_driver_repo_arch: "{{ 'sbsa' if ansible_facts['architecture'] == 'aarch64' else ansible_facts['architecture'] }}"
nvidia_driver_repo_url: >-
  https://developer.download.nvidia.com/compute/cuda/repos/{{ nvidia_driver_repo_distribution }}/{{ nvidia_driver_repo_arch }}
nvidia_driver_keyring_package: cuda-keyring_1.1-1_all.deb
nvidia_driver_apt_cache_valid_time: 3600

# A node running another driver version is changed only by the rolling upgrade
# (upgrade-driver.yml sets this after draining the node); site.yml refuses instead.
nvidia_driver_allow_upgrade: false
nvidia_driver_reboot_timeout: 1800

# False when the node is reached through a chroot: no module is loaded and no service started.
nvidia_driver_live_host: >-
  {{ gpugen_live_host | default(ansible_connection | default('ssh') not in ['chroot', 'community.general.chroot']) }}
