[=header]
---
# Pull mode: the inventory of a node of pool [=comment(pool.name)] that configures itself at boot
# (its user data, terraform/user-data-POOL.sh, runs ansible-playbook -c local -i THIS site.yml).
# The node is localhost, in the groups gpugen-inventory would give it, so group_vars apply as in
# push mode. Every spec string is !unsafe.
all:
  hosts:
    localhost:
<#list inventory.pullHostVars(pool.name) as v>
      [=id(v.key)]: [=unsafe(v.value)]
</#list>
  children:
<#list inventory.pullGroups(pool.name) as g>
    [=id(g)]:
      hosts:
        localhost: {}
</#list>
