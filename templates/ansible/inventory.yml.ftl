<#if ansible.staticHosts>
[=header]
---
# The static inventory of this cluster's bare-metal hosts: the groups (gpu_nodes, pool_<name>,
# on_demand) and gpugen_* host variables that gpugen-inventory gives EC2 hosts, so the same
# playbooks run unchanged. ansible.cfg points here. Every spec string is !unsafe.
all:
  hosts:
<#list ansible.inventoryHosts as h>
    [=yaml(h.name)]:
<#list h.vars as v>
      [=id(v.key)]: [=unsafe(v.value)]
</#list>
</#list>
  children:
<#list ansible.inventoryGroups as g>
    [=id(g.name)]:
      hosts:
<#list g.hosts as name>
        [=yaml(name)]: {}
</#list>
</#list>
<#elseif ansible.gke>
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
<#list ansible.gkePools as p>
        [=yaml(p.host)]: {}
</#list>
<#list ansible.gkePools as p>
    [=id(p.group)]:
      hosts:
        [=yaml(p.host)]: {}
</#list>
</#if>
