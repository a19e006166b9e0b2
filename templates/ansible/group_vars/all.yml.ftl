[=header]
---
# Cluster-wide values from the spec. Pool-specific values are in pool_<name>.yml,
# which Ansible applies on top of these for the hosts of that pool's group.
# Every spec string is !unsafe: Ansible never evaluates it as a Jinja template.

<#if !ansible.gke>
gpugen_cluster: [=unsafe(ansible.cluster)]
gpugen_environment: [=unsafe(ansible.environment)]
gpugen_spec_sha256: [=unsafe(specSha256)]
<#if ansible.mirrorVars?has_content>

# Mirrors (mirrors:): the node plays download from these instead of the public upstreams their
# role defaults name; each mirror has its upstream's layout (docs/air-gapped.md).
<#list ansible.mirrorVars as m>
# mirrors.[=id(m.source)]
[=id(m.name)]: [=unsafe(m.value)]
</#list>
</#if>

# 00 prerequisites
prerequisites_blacklist_nouveau: [=ansible.blacklistNouveau?c]
<#if ansible.sysctl?has_content>
prerequisites_sysctl:
<#list ansible.sysctl as e>
  [=yaml(e.key)]: [=unsafe(e.value)]
</#list>
<#else>
prerequisites_sysctl: {}
</#if>

# 01 driver + CUDA (cluster default; a pool's file overrides these)
nvidia_driver_version: [=unsafe(ansible.software.driver)]
nvidia_driver_branch: [=unsafe(ansible.software.driverBranch)]
nvidia_driver_cuda_major: [=unsafe(ansible.software.driverCudaMajor)]
nvidia_driver_kernel_modules: [=unsafe(ansible.software.kernelModules)]
nvidia_driver_cuda_version: [=unsafe(ansible.software.cuda)]
nvidia_driver_cuda_package: [=unsafe(ansible.software.cudaPackage)]

# 02 container runtime
container_runtime_toolkit_version: [=unsafe(ansible.software.containerToolkit)]
<#if ansible.registryMirrors?has_content>
# Container registry mirrors (mirrors.registries): containerd pulls each registry's images from
# its mirror (/etc/containerd/certs.d/<registry>/hosts.toml); override_path when the mirror's URL
# path is the registry API root.
container_runtime_registry_mirrors:
<#list ansible.registryMirrors as r>
  - registry: [=unsafe(r.registry)]
    server: [=unsafe(r.server)]
    url: [=unsafe(r.url)]
    override_path: [=r.overridePath?c]
</#list>
</#if>
<#if ansible.lustre.enabled>

# FSx for Lustre (storage.lustre): play 00 mounts the file system the Terraform creates here, and
# play 05 checks it. Its address comes from each node's tags, not from the spec (gpugen-inventory:
# gpugen_lustre_dns_name, gpugen_lustre_mount_name).
lustre_client_mount_point: [=unsafe(ansible.lustre.mountPoint)]
</#if>

<#if ansible.kubernetes.enabled>
# Kubernetes (kubernetes:): the cluster the GPU nodes are workers of; plays 03 and 05 check it.
kubernetes_checks_distribution: [=unsafe(ansible.kubernetes.distribution)]
kubernetes_checks_version: [=unsafe(ansible.kubernetes.version)]
<#if ansible.kubernetes.eks>
# EKS: the kubeconfig `aws eks update-kubeconfig` writes into the ignored state folder (the
# Terraform output kubeconfig_command prints the command), and the node names kubelet registers on
# EKS: the instance's private DNS name (gpugen-inventory's gpugen_private_dns).
kubernetes_checks_kubeconfig: "{{ playbook_dir }}/.state/kubeconfig"
kubernetes_checks_kubeconfig_hint: >-
  create it with the command `terraform output -raw kubeconfig_command` prints in ../terraform
  (aws eks update-kubeconfig; needs the AWS CLI and an identity with access to the cluster)
gpu_operator_kubeconfig: "{{ playbook_dir }}/.state/kubeconfig"
kubernetes_node_name: "{{ gpugen_private_dns | default(ansible_facts['fqdn']) }}"
<#else>
<#if ansible.kubernetes.kubeadm>
# kubeadm: play 02b creates the cluster on the control-plane hosts (inventory group
# kube_control_plane: the static hosts of kubernetes.controlPlane, or on AWS the instances the
# Terraform creates) and fetches its admin kubeconfig into the ignored state folder, mode 0600;
# plays 03-05 use the same file.
kubernetes_checks_kubeconfig: "{{ playbook_dir }}/.state/kubeconfig"
kubernetes_checks_kubeconfig_hint: >-
  run play 02b-kubernetes.yml (site.yml runs it): it fetches the admin kubeconfig from the first
  control-plane host
gpu_operator_kubeconfig: "{{ playbook_dir }}/.state/kubeconfig"
kubeadm_kubeconfig: "{{ playbook_dir }}/.state/kubeconfig"
kubeadm_kubernetes_minor: [=unsafe(ansible.kubernetes.version)]
kubeadm_cni: [=unsafe(ansible.kubernetes.cni)]
<#if ansible.kubernetes.aws>
# kubeadm init --pod-network-cidr: the first of 10.244.0.0/16, 192.168.0.0/16, 172.16.0.0/16
# that overlaps neither the VPC nor the subnet; --service-cidr: the first of 10.96.0.0/12
# (kubeadm's default), 172.20.0.0/16, 10.100.0.0/16 that overlaps none of them.
kubeadm_pod_cidr: [=unsafe(ansible.kubernetes.podCidr)]
kubeadm_service_cidr: [=unsafe(ansible.kubernetes.serviceCidr)]
<#if ansible.kubernetes.awsLoadBalancer>
# kubeadm init --control-plane-endpoint: the internal Network Load Balancer in front of the
# control-plane instances, known once terraform apply has created it: Terraform tags each
# instance with it (gpugen:kube-endpoint), gpugen-inventory hands it over as gpugen_kube_endpoint.
kubeadm_control_plane_endpoint: "{{ hostvars[groups['kube_control_plane'] | first]['gpugen_kube_endpoint'] }}"
<#else>
# kubeadm init --control-plane-endpoint: the one control-plane instance's private address
# (gpugen-inventory's gpugen_private_ip) and the API server port.
kubeadm_control_plane_endpoint: "{{ hostvars[groups['kube_control_plane'] | first]['gpugen_private_ip'] }}:6443"
</#if>
# The endpoint's host is an extra SAN of the API server certificate.
kubeadm_apiserver_cert_extra_sans: "{{ kubeadm_control_plane_endpoint | regex_replace(':[0-9]+$', '') }}"
# kubelet pulls from Amazon ECR (the EFA device plugin's image) with the node role, through
# ecr-credential-provider, as EKS nodes do.
kubeadm_ecr_credential_provider: true
<#else>
# kubeadm init --pod-network-cidr: the first of 10.244.0.0/16, 192.168.0.0/16, 172.16.0.0/16
# that holds none of the spec's host addresses; --service-cidr: the first of 10.96.0.0/12
# (kubeadm's default), 172.20.0.0/16, 10.100.0.0/16 that holds none and overlaps neither.
kubeadm_pod_cidr: [=unsafe(ansible.kubernetes.podCidr)]
kubeadm_service_cidr: [=unsafe(ansible.kubernetes.serviceCidr)]
# kubeadm init --control-plane-endpoint: kubernetes.controlPlane.endpoint (the load balancer or
# DNS name in front of every API server), else the first control-plane host's address; its host
# is an extra SAN of the API server certificate.
kubeadm_control_plane_endpoint: [=unsafe(ansible.kubernetes.controlPlaneEndpoint)]
kubeadm_apiserver_cert_extra_sans: [=unsafe(ansible.kubernetes.apiServerCertSan)]
</#if>
# containerd's runc uses the systemd cgroup driver, as kubelet does under kubeadm.
container_runtime_systemd_cgroup: true
</#if>
<#if ansible.kubernetes.kubeadm>
# The host's node name in Kubernetes: kubeadm's kubelet registers the host name.
kubernetes_node_name: "{{ ansible_facts['nodename'] }}"
<#else>
# The host's node name in your cluster: on EC2 the private DNS name (gpugen-inventory's
# gpugen_private_dns), as EKS and the AWS cloud provider name nodes; elsewhere the host name.
# Set kubernetes_node_name per host if your cluster names its nodes otherwise.
kubernetes_node_name: "{{ gpugen_private_dns | default(ansible_facts['nodename']) }}"
</#if>
</#if>

</#if>
# 03 GPU operator
<#if argocd.enabled>
# GitOps (gitops.argocd): ArgoCD installs the operator from argocd/; play 03 only checks that
# these Applications are Synced and Healthy.
gpu_operator_argocd_namespace: [=unsafe(argocd.namespace)]
gpu_operator_argocd_applications:
<#list argocd.applicationNames as a>
  - [=unsafe(a)]
</#list>
<#else>
gpu_operator_version: [=unsafe(ansible.software.gpuOperatorVersion)]
<#if ansible.devicePluginReplicas?has_content>
# The device plugin's ConfigMap entries and their time-slicing replicas: "any" for every node,
# and one per pool whose replicas differ (its nodes carry the nvidia.com/device-plugin.config
# label).
gpu_operator_device_plugin_replicas:
<#list ansible.devicePluginReplicas as c>
  [=yaml(c.key)]: [=c.value]
</#list>
<#else>
gpu_operator_device_plugin_replicas: {}
</#if>
# The chart values; argocd/apps/gpu-operator.yaml carries the same tree when GitOps is on.
gpu_operator_values:
[=unsafeTree(argocd.operatorValues, 2)]
<#if ansible.kubernetes.enabled>
# The NCCL settings pods mount (ConfigMap gpugen-nccl-conf, key nccl.conf), and the EFA device
# plugin on EFA fabrics.
gpu_operator_nccl_conf: [=unsafe(ansible.ncclConf)]
gpu_operator_efa_device_plugin: [=ansible.efaPools?c]
<#if ansible.rdmaDevicePlugin()>
# InfiniBand/RoCE pools: the RDMA shared device plugin gives pods the HCAs.
gpu_operator_rdma_device_plugin: true
</#if>
<#if ansible.gpuNodeTolerations?has_content>
# What every node-level DaemonSet gpugen installs tolerates (the EFA and RDMA device plugins; the
# GPU Operator's operands and NFD's worker get the same list in gpu_operator_values): every GPU
# pool's taint, and play 05's verdict taint.
gpu_operator_node_tolerations:
<#list ansible.gpuNodeTolerations as t>
  - key: [=unsafe(t.key)]
    operator: [=unsafe(t.operator)]
<#if t.operator == "Equal">
    value: [=unsafe(t.value)]
</#if>
    effect: [=unsafe(t.effect)]
</#list>
</#if>
</#if>
</#if>

# 04 NCCL network (each pool's file says its fabric)
<#if ansible.ncclEnv?has_content>
nccl_network_env:
<#list ansible.ncclEnv as e>
  [=yaml(e.key)]: [=unsafe(e.value)]
</#list>
<#else>
nccl_network_env: {}
</#if>

# 05 validation (cluster default; a pool's file overrides the thresholds)
validation_expected_driver_version: [=unsafe(ansible.software.driver)]
validation_expected_cuda_version: [=unsafe(ansible.software.cuda)]
validation_expected_container_toolkit_version: [=unsafe(ansible.software.containerToolkit)]
validation_gpu_burn_seconds: [=ansible.validation.gpuBurnSeconds]
</#if>
validation_dcgm_diag_level: [=ansible.validation.dcgmDiagLevel]
validation_nccl_min_bytes: [=unsafe(ansible.validation.minBytes)]
validation_nccl_max_bytes: [=unsafe(ansible.validation.maxBytes)]
<#if ansible.validation.minBusBandwidthGBps?has_content>
validation_nccl_min_bus_bandwidth_gbps: [=ansible.validation.minBusBandwidthGBps]
<#else>
validation_nccl_min_bus_bandwidth_gbps: null
</#if>
<#if !ansible.gke>
validation_outlier_percent: [=ansible.validation.outlierPercent]
validation_outlier_fails: [=ansible.validation.outlierFails?c]
</#if>
<#if ansible.validationState>
validation_scheduling_gate: [=ansible.validation.gateScheduling?c]
</#if>
<#if ansible.gke>
# GKE checks (plays 03-05 against the cluster's Kubernetes API)
gke_checks_context: [=unsafe(ansible.gkeContext)]
gke_checks_gpu_operator: [=ansible.gkeGpuOperator?c]
<#if ansible.gkeDcgmImage?has_content>
# dcgmi of the DCGM release whose host engine the GPU Operator runs on every GPU node.
gke_checks_dcgm_image: [=unsafe(ansible.gkeDcgmImage)]
</#if>
# /etc/nccl.conf as gke-nccl.tf's ConfigMap must hold it.
gke_checks_nccl_conf: [=unsafe(ansible.ncclConf)]
</#if>
