[=header]
---
# The GKE cluster as the plays see it: gke_cluster stands for the cluster (plays 03 and 04), and
# one gke_nodepool_<pool> host per node pool, in group pool_<pool> so that the pool's group_vars
# apply (plays 03 and 05). No host is reached over SSH: every task runs on this controller and
# talks to the Kubernetes API through kubernetes.core. ansible.cfg points here.
all:
  vars:
    ansible_connection: local
    ansible_python_interpreter: "{{ ansible_playbook_python }}"
  hosts:
    gke_cluster: {}
  children:
    gke_nodepools:
      hosts:
<#list gkeChecks.pools as p>
        [=yaml(p.host)]: {}
</#list>
<#list gkeChecks.pools as p>
    [=id(p.group)]:
      hosts:
        [=yaml(p.host)]: {}
</#list>
