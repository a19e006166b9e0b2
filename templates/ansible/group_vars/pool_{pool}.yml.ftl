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
nccl_network_fabric: [=unsafe(pool.fabric)]

<#if pool.labels?has_content>
gpu_operator_node_labels:
<#list pool.labels as e>
  [=yaml(e.key)]: [=unsafe(e.value)]
</#list>
<#else>
gpu_operator_node_labels: {}
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

</#if>
validation_fabric: [=unsafe(pool.fabric)]
validation_gpu_count: [=pool.facts.gpuCount]
validation_compute_capability: [=unsafe(pool.facts.computeCapability)]
validation_efa_interfaces: [=pool.facts.efaInterfaces]
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
