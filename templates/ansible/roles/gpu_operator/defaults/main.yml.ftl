[=header]
---
# Role gpu_operator (play 03): the NVIDIA GPU Operator chart, installed once per cluster from
# the controller, on nodes whose driver (play 01) and container toolkit (play 02) are installed
# on the host; node labels and taints; cordon/drain tasks for the rolling driver upgrade.

# The chart version, with its leading v (e.g. v25.3.0). Required.
gpu_operator_version: ""
gpu_operator_release_name: gpu-operator
gpu_operator_namespace: gpu-operator
gpu_operator_chart_repo_name: nvidia
gpu_operator_chart_repo_url: https://helm.ngc.nvidia.com/nvidia
gpu_operator_helm_wait_timeout: 15m

# Chart values. driver.enabled is always false: the driver comes from play 01.
# toolkit.enabled is false because play 02 installs and configures the toolkit on the host.
gpu_operator_toolkit_enabled: false
gpu_operator_dcgm_exporter: true
gpu_operator_mig_manager: false
# More than 1: every GPU is advertised that many times (device-plugin time-slicing, no memory
# or fault isolation between the sharing pods).
gpu_operator_time_slicing_replicas: 1
gpu_operator_time_slicing_config_name: time-slicing-config

# Where the values and manifests the chart is installed with are written on the controller,
# for review and for `helm get values` comparisons.
gpu_operator_values_dir: "{{ playbook_dir }}/reports"

# Kubernetes access from the controller; "" uses kubernetes.core's default (K8S_AUTH_KUBECONFIG
# or ~/.kube/config).
gpu_operator_kubeconfig: ""

# The node's name in Kubernetes, and its labels and taints from the spec.
gpu_operator_node_name: "{{ ansible_facts['nodename'] }}"
gpu_operator_node_labels: {}
gpu_operator_node_taints: []

# Drain before a driver upgrade: DaemonSet pods stay, emptyDir data is lost, pods get this long.
gpu_operator_drain_grace_period: 300
gpu_operator_drain_timeout: 1800
