[=header]
---
# Role prerequisites (play 00): what the kernel of a GPU node needs before the NVIDIA driver.
# A cluster's values come from group_vars (rendered from the gpugen spec); these defaults apply
# when the role runs on its own.

# Blacklist nouveau ("blacklist nouveau" and "options nouveau modeset=0", as NVIDIA's install
# guide says). A change regenerates the initramfs; false removes the file again.
prerequisites_blacklist_nouveau: true

# Kernel parameters: written to prerequisites_sysctl_file and applied to the running kernel.
prerequisites_sysctl: {}
prerequisites_sysctl_file: /etc/sysctl.d/90-gpugen.conf

# What DKMS needs to build the driver's kernel modules: the headers of the running kernel.
prerequisites_kernel_release: "{{ ansible_facts['kernel'] }}"
prerequisites_packages:
  - build-essential
  - dkms
  - "linux-headers-{{ prerequisites_kernel_release }}"
  - pciutils
prerequisites_apt_cache_valid_time: 3600

# A reboot happens only while nouveau is loaded on a node that blacklists it; never otherwise.
# GPU servers can take many minutes to come back.
prerequisites_reboot_allowed: true
prerequisites_reboot_timeout: 1800

# Whether the node is a running system. False when Ansible reaches it through a chroot (image
# builds, the gpugen tests): a chroot shares the controller's kernel, so no sysctl is applied
# and nothing is rebooted. Set gpugen_live_host to decide for every role at once.
prerequisites_live_host: >-
  {{ gpugen_live_host | default(ansible_connection | default('ssh') not in ['chroot', 'community.general.chroot']) }}
