[=header]
---
# The static inventory of this cluster's bare-metal hosts: the groups (gpu_nodes, pool_<name>,
# on_demand) and gpugen_* host variables that gpugen-inventory gives EC2 hosts, so the same
# playbooks run unchanged. ansible.cfg points here. Every spec string is !unsafe.
all:
  hosts:
<#list inventory.hosts as h>
    [=yaml(h.name)]:
<#list h.vars as v>
      [=id(v.key)]: [=unsafe(v.value)]
</#list>
</#list>
  children:
<#list inventory.groups as g>
    [=id(g.name)]:
      hosts:
<#list g.hosts as name>
        [=yaml(name)]: {}
</#list>
</#list>
