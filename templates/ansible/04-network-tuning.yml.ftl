<#if ansible.gke>
[=header]
---
# GKE: the Terraform writes /etc/nccl.conf on the GPU nodes (a ConfigMap and a DaemonSet with a
# hostPath mount); this play checks both against the spec, through the Kubernetes API.
- name: Check the NCCL settings on the GPU nodes
  hosts: gke_cluster
  gather_facts: false
  tasks:
    - name: Check the NCCL ConfigMap and DaemonSet
      ansible.builtin.import_role:
        name: gke_checks
        tasks_from: nccl
      tags: [gke_checks, kubernetes]
<#else>
[=header]
---
- name: Configure NCCL and the inter-node fabric
  hosts: gpu_nodes
  become: true
  gather_facts: true
  gather_subset:
    - "!all"
  roles:
    - role: nccl_network
      tags: [nccl_network]
</#if>
