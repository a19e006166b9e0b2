[=header]
---
# Every host runs every check and gets a report (reports/<host>.json on the controller) before
# any host is failed, so one bad node does not hide the figures of the others.
- name: Validate the GPU nodes
  hosts: gpu_nodes
  become: true
  gather_facts: true
  gather_subset:
    - "!all"
  roles:
    - role: validation
      tags: [validation]
<#if ansible.kubernetes.enabled>

# What the scheduler sees: every GPU node Ready and schedulable, advertising its GPUs (x the
# time-slicing replicas) and, on EFA pools, its EFA interfaces; the failure names the node.
- name: Check the scheduler's view of the GPU nodes
  hosts: gpu_nodes
  become: false
  gather_facts: true
  gather_subset:
    - "!all"
  tasks:
    - name: Check the node's Ready condition and allocatable resources
      ansible.builtin.import_role:
        name: kubernetes_checks
        tasks_from: scheduler
      tags: [kubernetes, scheduler]
<#if ansible.rdmaDevicePlugin()>

# InfiniBand/RoCE pools: NCCL inside a pod, through the RDMA shared device plugin play 03 deploys.
- name: Check NCCL over the HCAs inside a pod
  hosts: gpu_nodes
  become: false
  gather_facts: true
  gather_subset:
    - "!all"
  roles:
    - role: rdma_checks
      tags: [rdma_checks]
</#if>
<#else>

- name: Skip the scheduler checks (the spec names no Kubernetes cluster)
  hosts: gpu_nodes
  gather_facts: false
  tasks:
    - name: Say why the scheduler's view is not checked
      ansible.builtin.debug:
        msg: >-
          The spec has no kubernetes: section: whether the scheduler sees each node's GPUs is not
          checked. Add kubernetes: {distribution: ...} to the spec and render again.
      run_once: true
</#if>
