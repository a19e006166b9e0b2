[=header]
---
- name: Prepare the kernel of the GPU nodes
  hosts: gpu_nodes
  become: true
  gather_facts: true
  gather_subset:
    - "!all"
  roles:
    - role: prerequisites
      tags: [prerequisites]
<#if ansible.localNvme>
    # pools[].localNvme: a RAID 0 array of the instance-store NVMe volumes, mounted at every boot
    # (before containerd, whose root it may hold); only on the pools that ask for it.
    - role: local_nvme
      tags: [local_nvme]
      when: local_nvme_enabled | default(false) | bool
</#if>
<#if ansible.lustre.enabled>
    # storage.lustre: the Lustre client for the running kernel and the FSx for Lustre file system
    # in /etc/fstab, mounted.
    - role: lustre_client
      tags: [lustre_client]
</#if>
