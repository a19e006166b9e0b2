[=header]
---
# Role kubernetes_checks (plays 03 and 05): what the cluster says about the GPU hosts, read from
# the controller through the Kubernetes API (kubernetes.core; needs the Python kubernetes client,
# Debian package python3-kubernetes). It changes nothing in the cluster.

# Kubernetes access from the controller; "" uses kubernetes.core's default (K8S_AUTH_KUBECONFIG
# or ~/.kube/config).
kubernetes_checks_kubeconfig: ""

# The distribution and minor the spec names (group_vars/all.yml); the pre-flight compares the
# minor with what the API server reports.
kubernetes_checks_distribution: existing
kubernetes_checks_version: ""

# This host's node name in Kubernetes (group_vars/all.yml: kubernetes_node_name).
kubernetes_checks_node_name: "{{ kubernetes_node_name | default(ansible_facts['nodename']) }}"

# What the scheduler must see on this host's node (group_vars/pool_<name>.yml): allocatable
# nvidia.com/gpu = GPUs x time-slicing replicas, and vpc.amazonaws.com/efa = the EFA interfaces
# on EFA pools (0: not checked).
kubernetes_checks_gpus: 0
kubernetes_checks_time_slicing_replicas: 1
kubernetes_checks_efa_interfaces: 0

# Play 05 waits for the GPUs to be advertised (the device plugin starts after the operator):
# retries x delay seconds.
kubernetes_checks_retries: 30
kubernetes_checks_delay: 10
