<#if ansible.gke>
[=header]
---
# GKE: one validation Job per node pool, all pools at once (one inventory host per pool).
- name: Validate every node pool with a Job on one of its nodes
  hosts: gke_nodepools
  gather_facts: false
  tasks:
    - name: Run and check the pool's validation Job
      ansible.builtin.import_role:
        name: gke_checks
        tasks_from: validate
      tags: [gke_checks, kubernetes, burn-in]
<#else>
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
</#if>
