[=header]
---
# Values for the hosts of group [=id(pool.group)] (pool [=id(pool.name)]): the pool's own software and
# validation thresholds, resolved over the cluster's, and its Kubernetes labels and taints.
[=groupVars.poolFile(pool.name)]
