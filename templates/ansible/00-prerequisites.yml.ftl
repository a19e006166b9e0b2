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
<#if ansible.lustre.enabled>
    # storage.lustre: the Lustre client for the running kernel and the FSx for Lustre file system
    # in /etc/fstab, mounted.
    - role: lustre_client
      tags: [lustre_client]
</#if>
