[=header]
---
# Role nvidia_driver (play 01): the NVIDIA data-center driver at exactly the spec's version, the
# CUDA toolkit, Fabric Manager on NVSwitch systems, the persistence daemon and DCGM, all from
# NVIDIA's CUDA apt repository. A cluster's values come from group_vars.

# The exact driver version (e.g. "580.95.05") and its branch ("580"). Required.
nvidia_driver_version: ""
nvidia_driver_branch: ""
# open or proprietary kernel modules: open on Turing and newer (required on Blackwell),
# proprietary on Volta and older.
nvidia_driver_kernel_modules: open
# Ubuntu's server-branch packages: nvidia-driver-<branch>-server(-open).
nvidia_driver_package: >-
  nvidia-driver-{{ nvidia_driver_branch }}-server{{ '-open' if nvidia_driver_kernel_modules == 'open' else '' }}

# Fabric Manager, at exactly the driver's version, on NVSwitch systems (HGX: p4d, p5, p5e, p5en,
# p6-b200). libnvidia-nscq lets DCGM see the NVSwitches.
nvidia_driver_fabricmanager: false
nvidia_driver_fabricmanager_packages:
  - "nvidia-fabricmanager-{{ nvidia_driver_branch }}"
  - "libnvidia-nscq-{{ nvidia_driver_branch }}"

# The CUDA toolkit: cuda-toolkit-X-Y only. The cuda and cuda-X-Y meta-packages pull in
# cuda-drivers, another driver than the one pinned here.
nvidia_driver_cuda_version: ""
nvidia_driver_cuda_package: ""

# DCGM 4, built for the toolkit's CUDA major version.
nvidia_driver_dcgm_package: >-
  datacenter-gpu-manager-4-cuda{{ (nvidia_driver_cuda_version | string).split('.') | first }}

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
