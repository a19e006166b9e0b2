[=header]
---
# Cluster-wide values from the spec. Pool-specific values are in pool_<name>.yml,
# which Ansible applies on top of these for the hosts of that pool's group.
# Every spec string is !unsafe: Ansible never evaluates it as a Jinja template.
[=groupVars.clusterFile]
