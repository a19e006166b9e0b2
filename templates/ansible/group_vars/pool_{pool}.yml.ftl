[=header]
---
# Values for the hosts of group [=id(pool.group)] (pool [=id(pool.name)]): the pool's own software and
# validation thresholds, resolved over the cluster's, and its Kubernetes labels and taints.

<#if !ansible.gke>
gpugen_pool: [=unsafe(pool.name)]

nvidia_driver_version: [=unsafe(pool.software.driver)]
nvidia_driver_branch: [=unsafe(pool.software.driverBranch)]
nvidia_driver_cuda_major: [=unsafe(pool.software.driverCudaMajor)]
nvidia_driver_kernel_modules: [=unsafe(pool.facts.kernelModules)]
nvidia_driver_fabricmanager: [=pool.facts.nvswitch?c]
nvidia_driver_nvlsm: [=pool.facts.nvlsm?c]
nvidia_driver_cuda_version: [=unsafe(pool.software.cuda)]
nvidia_driver_cuda_package: [=unsafe(pool.software.cudaPackage)]
container_runtime_toolkit_version: [=unsafe(pool.software.containerToolkit)]
<#if pool.localNvme.enabled>
# pools[].localNvme: the instance store as one RAID 0 array (play 00).
local_nvme_enabled: true
local_nvme_mount: [=unsafe(pool.localNvme.mount)]
local_nvme_containerd: [=pool.localNvme.containerd?c]
</#if>
nccl_network_fabric: [=unsafe(pool.fabric)]
<#assign fv = ansible.fabric(pool.name)>
# The host interface NCCL bootstraps over and Open MPI's TCP traffic uses: pools[].bootstrapInterface,
# else ("") the interface holding the host's address, found on each host.
nccl_network_bootstrap_interface: [=unsafe(fv.bootstrapInterface)]
nccl_network_pin_socket_ifname: [=fv.pinSocketIfname?c]
<#if fv.docaOfed?has_content>
# software.docaOfed: NVIDIA's DOCA-OFED, installed in play 00 before the driver.
doca_ofed_version: [=unsafe(fv.docaOfed)]
</#if>
<#if fv.preflight>
# pools[].rdma.preflight: play 00 checks these first, before installing anything.
fabric_preflight_enabled: true
fabric_preflight_link_layer: [=unsafe(fv.linkLayer)]
fabric_preflight_hca_ports: [=unsafe(fv.hcaPorts)]
fabric_preflight_link_gbps: [=unsafe(fv.linkGbps)]
</#if>
<#if fv.cpuGovernor?has_content || fv.hugepages?has_content || fv.gpuClocks?has_content>
# pools[].tuning
host_tuning_cpu_governor: [=unsafe(fv.cpuGovernor)]
host_tuning_hugepages: [=unsafe(fv.hugepages)]
host_tuning_gpu_clocks: [=unsafe(fv.gpuClocks)]
</#if>

<#if pool.labels?has_content>
gpu_operator_node_labels:
<#list pool.labels as e>
  [=yaml(e.key)]: [=unsafe(e.value)]
</#list>
<#else>
gpu_operator_node_labels: {}
</#if>
<#if ansible.kubeadm() && pool.kubeletLabels?has_content>
# The labels kubelet registers the node with (--node-labels): the pool's but those of the
# kubernetes.io and k8s.io namespaces kubelet may not give itself, which play 03 sets.
kubeadm_node_labels:
<#list pool.kubeletLabels as e>
  [=yaml(e.key)]: [=unsafe(e.value)]
</#list>
</#if>
<#if pool.taints?has_content>
gpu_operator_node_taints:
<#list pool.taints as t>
  - key: [=unsafe(t.key)]
    value: [=unsafe(t.value.orElse(""))]
    effect: [=unsafe(t.effect)]
</#list>
<#else>
gpu_operator_node_taints: []
</#if>

<#if ansible.kubernetes.enabled>
# What play 05 expects the scheduler to see on each node of the pool.
kubernetes_checks_gpus: [=pool.facts.gpuCount]
kubernetes_checks_time_slicing_replicas: [=ansible.schedulerTimeSlicingReplicas(pool.name)]
kubernetes_checks_efa_interfaces: [=ansible.schedulerEfaInterfaces(pool)]
<#if fv.verbs && ansible.rdmaDevicePlugin()>
# Play 05: NCCL over the pool's HCAs inside a pod on its first node.
rdma_checks_enabled: true
rdma_checks_group: [=unsafe(pool.group)]
</#if>

</#if>
validation_fabric: [=unsafe(pool.fabric)]
# The multi-node all-reduce runs once per group: this pool's nodes (in its placement group).
validation_nccl_group: [=unsafe(pool.allReduceGroup)]
validation_bootstrap_interface: [=unsafe(fv.bootstrapInterface)]
<#if fv.gdrRequired>
# GPUDirect RDMA: the multi-node log must show the fabric's NET connections marked GDRDMA
# (InfiniBand/RoCE, and EFA types aws-ofi-nccl marks gdr_required).
validation_nccl_gdr_required: true
</#if>
<#if fv.minMultiNodeBusBandwidthGBps?has_content>
# The multi-node threshold: validation.ncclAllReduce.minMultiNodeBusBandwidthGBps, else on
# InfiniBand/RoCE 80% of the lower of what the HCAs carry (ports x Gb/s / 8) and the GPUs'
# single-node figure.
validation_nccl_min_multi_node_bus_bandwidth_gbps: [=unsafe(fv.minMultiNodeBusBandwidthGBps)]
</#if>
validation_gpu_count: [=pool.facts.gpuCount]
validation_compute_capability: [=unsafe(pool.facts.computeCapability)]
validation_efa_interfaces: [=pool.facts.efaInterfaces]
validation_fabric_manager: [=pool.facts.fabricState?c]
validation_expected_driver_version: [=unsafe(pool.software.driver)]
validation_expected_cuda_version: [=unsafe(pool.software.cuda)]
validation_expected_container_toolkit_version: [=unsafe(pool.software.containerToolkit)]
validation_gpu_burn_seconds: [=pool.validation.gpuBurnSeconds]
</#if>
validation_dcgm_diag_level: [=pool.validation.dcgmDiagLevel]
validation_nccl_min_bytes: [=unsafe(pool.validation.minBytes)]
validation_nccl_max_bytes: [=unsafe(pool.validation.maxBytes)]
<#if pool.validation.minBusBandwidthGBps?has_content>
validation_nccl_min_bus_bandwidth_gbps: [=pool.validation.minBusBandwidthGBps]
<#else>
validation_nccl_min_bus_bandwidth_gbps: null
</#if>
<#if !ansible.gke>
validation_outlier_percent: [=pool.validation.outlierPercent]
validation_outlier_fails: [=pool.validation.outlierFails?c]
</#if>
<#if ansible.validationState>
validation_scheduling_gate: [=pool.validation.gateScheduling?c]
</#if>
<#if ansible.gke>
<#assign gke = ansible.gkePool(pool.name)>

# GKE checks: the node pool, what each of its nodes must advertise, and how a pod lands there.
gke_checks_node_pool: [=unsafe(gke.nodePool)]
gke_checks_gpus: [=gke.gpus]
gke_checks_time_slicing_replicas: [=gke.timeSlicingReplicas]
gke_checks_allocatable_gpus: [=gke.allocatableGpus]
gke_checks_job_gpus: [=gke.jobGpus]
gke_checks_min_nodes: [=gke.minNodes]
gke_checks_job_name: [=unsafe(gke.jobName)]
# Play 05's all-reduce across the pool's nodes: on this many (0: none; one node, or shared GPUs).
gke_checks_multi_node: [=gke.multiNode]
gke_checks_allreduce_name: [=unsafe(gke.allReduceName)]
# Why play 05 runs no Job on this pool ("" when it does).
gke_checks_skip_reason: [=unsafe(gke.skipReason)]
<#if gke.minMultiNodeBusBandwidthGBps?has_content>
validation_nccl_min_multi_node_bus_bandwidth_gbps: [=unsafe(gke.minMultiNodeBusBandwidthGBps)]
<#else>
validation_nccl_min_multi_node_bus_bandwidth_gbps: null
</#if>
<#if gke.tolerations?has_content>
gke_checks_tolerations:
<#list gke.tolerations as t>
  - key: [=unsafe(t.key)]
    operator: [=unsafe(t.operator)]
<#if t.value?has_content>
    value: [=unsafe(t.value)]
</#if>
    effect: [=unsafe(t.effect)]
</#list>
<#else>
gke_checks_tolerations: []
</#if>
</#if>
