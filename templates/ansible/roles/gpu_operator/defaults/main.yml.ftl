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

# Chart values (a mapping), written from the spec into group_vars/all.yml by gpugen: the driver
# and the container toolkit stay disabled (plays 01 and 02 install them on the host). With GitOps
# on, ArgoCD's Application carries the same values and this role installs nothing.
gpu_operator_values: {}

# The device plugin's config entries (ConfigMap key -> time-slicing replicas): above 1, every GPU
# is advertised "replicas" times (no memory or fault isolation between the sharing pods); 1 is
# whole GPUs. Empty: no ConfigMap. Nodes pick an entry other than "any" with the
# nvidia.com/device-plugin.config label, which gpu_operator_node_labels carries for them.
gpu_operator_device_plugin_replicas: {}
gpu_operator_time_slicing_config_name: time-slicing-config

# Where the values and manifests the chart is installed with are written on the controller,
# for review and for `helm get values` comparisons.
gpu_operator_values_dir: "{{ playbook_dir }}/reports"

# The NCCL settings for pods: ConfigMap gpugen-nccl-conf, key nccl.conf (the NAME=VALUE lines of
# /etc/nccl.conf), in each of these namespaces (which must exist); mount it at /etc/nccl.conf.
gpu_operator_nccl_configmap_name: gpugen-nccl-conf
gpu_operator_nccl_namespaces:
  - default
gpu_operator_nccl_conf: ""

# What every node-level DaemonSet gpugen installs tolerates: the GPU pools' taints and play 05's
# verdict taint (group_vars/all.yml, from one definition in gpugen's plan; the GPU Operator's
# operands and NFD's worker get the same list in gpu_operator_values).
gpu_operator_node_tolerations: []

# The AWS EFA device plugin (network.fabric efa): the eks-charts chart, pinned to the version of
# gpugen's table (https://github.com/aws/eks-charts/tree/master/stable/aws-efa-k8s-device-plugin),
# installed by play 04 after the EFA installer. Its DaemonSet runs only on the instance types its
# values.yaml lists (the chart's node affinity on node.kubernetes.io/instance-type; the linter
# refuses an EFA pool of any other type: efa-device-plugin-unscheduled); the chart appends these
# tolerations to its own CriticalAddonsOnly.
gpu_operator_efa_device_plugin: false
gpu_operator_efa_chart_repo_name: eks
gpu_operator_efa_chart_repo_url: https://aws.github.io/eks-charts
gpu_operator_efa_chart_version: [=yaml(ansible.efaDevicePluginChartVersion)]
gpu_operator_efa_release_name: aws-efa-k8s-device-plugin
gpu_operator_efa_namespace: kube-system
gpu_operator_efa_tolerations: "{{ gpu_operator_node_tolerations }}"

# InfiniBand/RoCE pools: NVIDIA's RDMA shared device plugin (k8s-rdma-shared-dev-plugin, the one
# NVIDIA's Network Operator deploys), so pods that request rdma/<resource> get the HCAs'
# /dev/infiniband devices; without it NCCL in pods falls back to TCP sockets. The DaemonSet is the
# plugin's own deployment/k8s/base/daemonset.yaml (https://github.com/Mellanox/k8s-rdma-shared-dev-plugin)
# with the image the Network Operator v26.4.1 pins (hack/release.yaml of
# https://github.com/Mellanox/network-operator: RdmaSharedDevicePlugin network-operator-v26.4.1).
# One shared resource for every NVIDIA (Mellanox, PCI vendor 15b3) HCA of a node; a pod asks for
# rdma/hca_shared_devices_a: 1 and the IPC_LOCK capability (memory registration).
gpu_operator_rdma_device_plugin: false
gpu_operator_rdma_image: nvcr.io/nvidia/mellanox/k8s-rdma-shared-dev-plugin:network-operator-v26.4.1
gpu_operator_rdma_namespace: kube-system
gpu_operator_rdma_resource_name: hca_shared_devices_a
gpu_operator_rdma_hca_max: 1000
gpu_operator_rdma_config:
  periodicUpdateInterval: 300
  configList:
    - resourceName: "{{ gpu_operator_rdma_resource_name }}"
      rdmaHcaMax: "{{ gpu_operator_rdma_hca_max | int }}"
      selectors:
        vendors: ["15b3"]
# Like the EFA device plugin's: the GPU nodes' own taints must not keep their device plugin away.
gpu_operator_rdma_tolerations: "{{ gpu_operator_node_tolerations }}"

<#if argocd.enabled>
# GitOps (gitops.argocd): the Applications to check, in ArgoCD's namespace, and how long to wait
# for each to be Synced and Healthy (retries x delay seconds).
gpu_operator_argocd_namespace: argocd
gpu_operator_argocd_applications: []
gpu_operator_argocd_retries: 60
gpu_operator_argocd_delay: 10

</#if>
# Kubernetes access from the controller; "" uses kubernetes.core's default (K8S_AUTH_KUBECONFIG
# or ~/.kube/config).
gpu_operator_kubeconfig: ""

# The node's name in Kubernetes, and its labels and taints from the spec.
gpu_operator_node_name: "{{ kubernetes_node_name | default(ansible_facts['nodename']) }}"
gpu_operator_node_labels: {}
gpu_operator_node_taints: []

# Drain before a driver upgrade: DaemonSet pods stay, emptyDir data is lost, pods get this long.
gpu_operator_drain_grace_period: 300
gpu_operator_drain_timeout: 1800
