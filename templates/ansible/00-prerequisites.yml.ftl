[=header]
---
- name: Prepare the kernel of the GPU nodes
  hosts: gpu_nodes
  become: true
  gather_facts: true
  gather_subset:
    - "!all"
  roles:
<#if ansible.preflight()>
    # pools[].rdma.preflight: the HCAs, PCIe ACS and the IOMMU of InfiniBand/RoCE hosts, checked
    # before anything is installed; a host that fails stops here with what is wrong.
    - role: fabric_preflight
      tags: [fabric_preflight]
</#if>
    - role: prerequisites
      tags: [prerequisites]
<#if ansible.docaOfed()>
    # software.docaOfed: NVIDIA's DOCA-OFED before play 01, so the driver's nvidia-peermem is built
    # against its ib_core (the way DeepOps runs its mofed role ahead of the driver).
    - role: doca_ofed
      tags: [doca_ofed]
</#if>
<#if ansible.hostTuning()>
    # pools[].tuning: CPU governor, hugepages and GPU application clocks, each only where written.
    - role: host_tuning
      tags: [host_tuning]
</#if>
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
