[=header]
---
# Role container_runtime (play 02): containerd, and the NVIDIA Container Toolkit at exactly the
# spec's version (all four of its packages at that version), configured as containerd's runtime.

# The toolkit version, e.g. "1.17.8". Required.
container_runtime_toolkit_version: ""
container_runtime_toolkit_packages:
  - nvidia-container-toolkit
  - nvidia-container-toolkit-base
  - libnvidia-container-tools
  - libnvidia-container1
container_runtime_repo_url: https://nvidia.github.io/libnvidia-container/stable/deb
container_runtime_keyring_url: https://nvidia.github.io/libnvidia-container/gpgkey
container_runtime_keyring: /etc/apt/keyrings/nvidia-container-toolkit.asc
container_runtime_apt_cache_valid_time: 3600

# The containerd package to install; "" when the image already provides containerd (for example
# containerd.io from Docker's repository, which conflicts with Ubuntu's containerd).
container_runtime_containerd_package: containerd
container_runtime_containerd_config: /etc/containerd/config.toml

# Make nvidia containerd's default runtime. The GPU Operator runs with toolkit.enabled=false on
# these nodes, and its device plugin needs the nvidia runtime as the default (or a RuntimeClass).
container_runtime_set_as_default: true

# False when the node is reached through a chroot: containerd is never restarted there.
container_runtime_live_host: >-
  {{ gpugen_live_host | default(ansible_connection | default('ssh') not in ['chroot', 'community.general.chroot']) }}
