package dev.gpugen.render;

import static dev.gpugen.render.AnsibleVar.cluster;
import static dev.gpugen.render.AnsibleVar.clusterHeading;
import static dev.gpugen.render.AnsibleVar.jinja;
import static dev.gpugen.render.AnsibleVar.number;
import static dev.gpugen.render.AnsibleVar.of;
import static dev.gpugen.render.AnsibleVar.override;
import static dev.gpugen.render.AnsibleVar.pool;
import static dev.gpugen.render.AnsibleVar.poolHeading;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.plan.ValidationState;
import dev.gpugen.render.AnsibleVar.Heading;
import dev.gpugen.render.AnsibleVar.Raw;
import dev.gpugen.render.AnsibleVar.Tree;
import dev.gpugen.render.AnsibleVar.Value;
import dev.gpugen.spec.ClusterSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The group_vars of the Ansible tree: every variable group_vars/all.yml and the pool files set,
 * once each, in the order the files list them ({@link AnsibleVar}). A role reads these and nothing
 * else from the spec; a role default is what a role falls back to when it is used outside gpugen.
 */
public final class AnsibleVars {
  private final ClusterPlan plan;

  AnsibleVars(ClusterPlan plan) {
    this.plan = plan;
  }

  /** group_vars/all.yml's variables (the template writes the header above them). */
  public GeneratedOutputFormat.Markup clusterFile() {
    return GeneratedOutputFormat.markup(AnsibleVar.clusterFile(LIST, plan));
  }

  /** Pool {@code name}'s group_vars file's variables. */
  public GeneratedOutputFormat.Markup poolFile(String name) {
    return GeneratedOutputFormat.markup(AnsibleVar.poolFile(LIST, plan, plan.pool(name)));
  }

  private static final String KUBECONFIG = "{{ playbook_dir }}/.state/kubeconfig";

  /** Every group variable, in file order. */
  static final List<AnsibleVarItem> LIST = AnsibleVar.checked(items());

  private static List<AnsibleVarItem> items() {
    List<AnsibleVarItem> l = new ArrayList<>();
    l.add(AnsibleVar.heading());
    l.add(cluster("gpugen_cluster", nodes(p -> of(p.spec().metadata().name()))));
    l.add(
        cluster(
            "gpugen_environment", nodes(p -> of(p.spec().metadata().environment().orElse("")))));
    l.add(cluster("gpugen_spec_sha256", nodes(p -> of(p.fingerprint()))));
    l.add(pool("gpugen_pool", poolNodes((p, pp) -> of(pp.pool().name()))));

    l.add(
        clusterHeading(
            "Mirrors (mirrors:): the node plays download from these instead of the public"
                + " upstreams their",
            "role defaults name; each mirror has its upstream's layout (docs/air-gapped.md)."));
    for (String name : MirrorVars.NAMES) {
      l.add(
          cluster(
              name,
              nodes(
                  p ->
                      MirrorVars.of(p).stream()
                          .filter(m -> m.name().equals(name))
                          .findFirst()
                          .flatMap(m -> of(m.value(), "mirrors." + m.source())))));
    }

    l.add(clusterHeading("00 prerequisites"));
    l.add(
        cluster(
            "prerequisites_blacklist_nouveau",
            nodes(p -> of(p.spec().kernel().blacklistNouveau()))));
    l.add(cluster("prerequisites_sysctl", nodes(p -> of(p.spec().kernel().sysctl()))));

    l.add(
        new Heading(
            Optional.of(
                List.of("01 driver + CUDA (cluster default; a pool's file overrides these)")),
            Optional.of(List.of())));
    l.add(software("nvidia_driver_version", s -> of(s.driver())));
    l.add(software("nvidia_driver_branch", s -> of(ClusterPlan.driverBranch(s))));
    l.add(
        override(
            "nvidia_driver_cuda_major",
            nodes(p -> of(p.driverCudaMajor(p.spec().software()))),
            poolNodes((p, pp) -> of(p.driverCudaMajor(pp.pool().software())))));
    l.add(
        override(
            "nvidia_driver_kernel_modules",
            nodes(p -> of(p.clusterKernelModules())),
            poolNodes((p, pp) -> of(pp.kernelModules()))));
    l.add(pool("nvidia_driver_fabricmanager", poolNodes((p, pp) -> of(pp.hardware().nvswitch()))));
    l.add(
        pool("nvidia_driver_nvlsm", poolNodes((p, pp) -> of(pp.hardware().nvlinkSubnetManager()))));
    l.add(software("nvidia_driver_cuda_version", s -> of(s.cuda())));
    l.add(
        software(
            "nvidia_driver_cuda_package", s -> of("cuda-toolkit-" + s.cuda().replace('.', '-'))));

    l.add(clusterHeading("02 container runtime"));
    l.add(software("container_runtime_toolkit_version", s -> of(s.containerToolkit())));
    l.add(
        cluster(
            "container_runtime_registry_mirrors",
            nodes(
                p -> {
                  List<Map<String, Object>> mirrors = new ArrayList<>();
                  for (RegistryMirror r : registryMirrors(p)) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("registry", r.registry());
                    m.put("server", r.server());
                    m.put("url", r.url());
                    m.put("override_path", r.overridePath());
                    mirrors.add(m);
                  }
                  return mirrors.isEmpty()
                      ? Optional.empty()
                      : of(
                          mirrors,
                          "Container registry mirrors (mirrors.registries): containerd pulls each"
                              + " registry's images from",
                          "its mirror (/etc/containerd/certs.d/<registry>/hosts.toml);"
                              + " override_path when the mirror's URL",
                          "path is the registry API root.");
                })));
    l.add(
        pool(
            "local_nvme_enabled",
            poolNodes(
                (p, pp) ->
                    AnsibleView.localNvme(p, pp)
                        .flatMap(
                            n ->
                                of(
                                    true,
                                    "pools[].localNvme: the instance store as one RAID 0 array"
                                        + " (play 00).")))));
    l.add(
        pool(
            "local_nvme_mount",
            poolNodes((p, pp) -> AnsibleView.localNvme(p, pp).flatMap(n -> of(n.mount())))));
    l.add(
        pool(
            "local_nvme_containerd",
            poolNodes((p, pp) -> AnsibleView.localNvme(p, pp).flatMap(n -> of(n.containerd())))));
    l.add(pool("nccl_network_fabric", poolNodes((p, pp) -> of(pp.pool().fabric().spelling()))));
    l.add(
        pool(
            "nccl_network_bootstrap_interface",
            fabric(
                f ->
                    of(
                        f.bootstrapInterface(),
                        "The host interface NCCL bootstraps over and Open MPI's TCP traffic uses:"
                            + " pools[].bootstrapInterface,",
                        "else (\"\") the interface holding the host's address, found on each"
                            + " host."))));
    l.add(pool("nccl_network_pin_socket_ifname", fabric(f -> of(f.pinSocketIfname()))));
    l.add(
        pool(
            "doca_ofed_version",
            fabric(
                f ->
                    f.docaOfed().isEmpty()
                        ? Optional.empty()
                        : of(
                            f.docaOfed(),
                            "software.docaOfed: NVIDIA's DOCA-OFED, installed in play 00 before"
                                + " the driver."))));
    l.add(
        pool(
            "fabric_preflight_enabled",
            fabric(
                f ->
                    f.preflight()
                        ? of(
                            true,
                            "pools[].rdma.preflight: play 00 checks these first, before installing"
                                + " anything.")
                        : Optional.empty())));
    l.add(preflight("fabric_preflight_link_layer", FabricVars::linkLayer));
    l.add(preflight("fabric_preflight_hca_ports", FabricVars::hcaPorts));
    l.add(preflight("fabric_preflight_link_gbps", FabricVars::linkGbps));
    l.add(tuning("host_tuning_cpu_governor", FabricVars::cpuGovernor, "pools[].tuning"));
    l.add(tuning("host_tuning_hugepages", FabricVars::hugepages));
    l.add(tuning("host_tuning_gpu_clocks", FabricVars::gpuClocks));

    l.add(clusterHeading());
    l.add(
        cluster(
            "lustre_client_mount_point",
            nodes(
                p ->
                    p.lustre()
                        .flatMap(
                            lu ->
                                of(
                                    lu.mountPoint(),
                                    "FSx for Lustre (storage.lustre): play 00 mounts the file"
                                        + " system the Terraform creates here, and",
                                    "play 05 checks it. Its address comes from each node's tags,"
                                        + " not from the spec (gpugen-inventory:",
                                    "gpugen_lustre_dns_name, gpugen_lustre_mount_name).")))));

    kubernetes(l);
    gpuOperator(l);

    l.add(clusterHeading("04 NCCL network (each pool's file says its fabric)"));
    l.add(cluster("nccl_network_env", nodes(p -> of(p.spec().nccl().env()))));

    validation(l);
    gke(l);
    return l;
  }

  /** The kubernetes: section: the cluster the GPU nodes join, and kubeadm's settings. */
  private static void kubernetes(List<AnsibleVarItem> l) {
    l.add(
        clusterHeading(
            "Kubernetes (kubernetes:): the cluster the GPU nodes are workers of; plays 03 and 05"
                + " check it."));
    l.add(cluster("kubernetes_checks_distribution", k8s(k -> of(k.distribution()))));
    l.add(cluster("kubernetes_checks_version", k8s(k -> of(k.version()))));
    l.add(
        cluster(
            "kubernetes_checks_kubeconfig",
            k8s(
                k ->
                    k.eks()
                        ? of(
                            jinja(KUBECONFIG),
                            "EKS: the kubeconfig `aws eks update-kubeconfig` writes into the"
                                + " ignored state folder (the",
                            "Terraform output kubeconfig_command prints the command), and the node"
                                + " names kubelet registers on",
                            "EKS: the instance's private DNS name (gpugen-inventory's"
                                + " gpugen_private_dns).")
                        : k.kubeadm()
                            ? of(
                                jinja(KUBECONFIG),
                                "kubeadm: play 02b creates the cluster on the control-plane hosts"
                                    + " (inventory group",
                                "kube_control_plane: the static hosts of"
                                    + " kubernetes.controlPlane, or on AWS the instances the",
                                "Terraform creates) and fetches its admin kubeconfig into the"
                                    + " ignored state folder, mode 0600;",
                                "plays 03-05 use the same file.")
                            : Optional.empty())));
    l.add(
        cluster(
            "kubernetes_checks_kubeconfig_hint",
            k8s(
                k ->
                    k.eks()
                        ? of(
                            new Raw(
                                ">-\n  create it with the command `terraform output -raw"
                                    + " kubeconfig_command` prints in ../terraform\n  (aws eks"
                                    + " update-kubeconfig; needs the AWS CLI and an identity with"
                                    + " access to the cluster)"))
                        : k.kubeadm()
                            ? of(
                                new Raw(
                                    ">-\n  run play 02b-kubernetes.yml (site.yml runs it): it"
                                        + " fetches the admin kubeconfig from the first\n "
                                        + " control-plane host"))
                            : Optional.empty())));
    l.add(
        cluster(
            "gpu_operator_kubeconfig",
            k8s(k -> k.eks() || k.kubeadm() ? of(jinja(KUBECONFIG)) : Optional.empty())));
    l.add(cluster("kubeadm_kubeconfig", kubeadm(k -> of(jinja(KUBECONFIG)))));
    l.add(cluster("kubeadm_kubernetes_minor", kubeadm(k -> of(k.version()))));
    l.add(cluster("kubeadm_cni", kubeadm(k -> of(k.cni()))));
    l.add(
        cluster(
            "kubeadm_pod_cidr",
            kubeadm(
                k ->
                    k.aws()
                        ? of(
                            k.podCidr(),
                            "kubeadm init --pod-network-cidr: the first of 10.244.0.0/16,"
                                + " 192.168.0.0/16, 172.16.0.0/16",
                            "that overlaps neither the VPC nor the subnet; --service-cidr: the"
                                + " first of 10.96.0.0/12",
                            "(kubeadm's default), 172.20.0.0/16, 10.100.0.0/16 that overlaps none"
                                + " of them.")
                        : of(
                            k.podCidr(),
                            "kubeadm init --pod-network-cidr: the first of 10.244.0.0/16,"
                                + " 192.168.0.0/16, 172.16.0.0/16",
                            "that holds none of the spec's host addresses; --service-cidr: the"
                                + " first of 10.96.0.0/12",
                            "(kubeadm's default), 172.20.0.0/16, 10.100.0.0/16 that holds none and"
                                + " overlaps neither."))));
    l.add(cluster("kubeadm_service_cidr", kubeadm(k -> of(k.serviceCidr()))));
    l.add(
        cluster(
            "kubeadm_control_plane_endpoint",
            kubeadm(
                k ->
                    !k.aws()
                        ? of(
                            k.controlPlaneEndpoint(),
                            "kubeadm init --control-plane-endpoint: kubernetes.controlPlane.endpoint"
                                + " (the load balancer or",
                            "DNS name in front of every API server), else the first control-plane"
                                + " host's address; its host",
                            "is an extra SAN of the API server certificate.")
                        : k.awsLoadBalancer()
                            ? of(
                                jinja(
                                    "{{ hostvars[groups['kube_control_plane'] |"
                                        + " first]['gpugen_kube_endpoint'] }}"),
                                "kubeadm init --control-plane-endpoint: the internal Network Load"
                                    + " Balancer in front of the",
                                "control-plane instances, known once terraform apply has created"
                                    + " it: Terraform tags each",
                                "instance with it (gpugen:kube-endpoint), gpugen-inventory hands it"
                                    + " over as gpugen_kube_endpoint.")
                            : of(
                                jinja(
                                    "{{ hostvars[groups['kube_control_plane'] |"
                                        + " first]['gpugen_private_ip'] }}:6443"),
                                "kubeadm init --control-plane-endpoint: the one control-plane"
                                    + " instance's private address",
                                "(gpugen-inventory's gpugen_private_ip) and the API server"
                                    + " port."))));
    l.add(
        cluster(
            "kubeadm_apiserver_cert_extra_sans",
            kubeadm(
                k ->
                    k.aws()
                        ? of(
                            jinja(
                                "{{ kubeadm_control_plane_endpoint | regex_replace(':[0-9]+$',"
                                    + " '') }}"),
                            "The endpoint's host is an extra SAN of the API server certificate.")
                        : of(k.apiServerCertSan()))));
    l.add(
        cluster(
            "kubeadm_ecr_credential_provider",
            kubeadm(
                k ->
                    k.aws()
                        ? of(
                            true,
                            "kubelet pulls from Amazon ECR (the EFA device plugin's image) with"
                                + " the node role, through",
                            "ecr-credential-provider, as EKS nodes do.")
                        : Optional.empty())));
    l.add(
        cluster(
            "container_runtime_systemd_cgroup",
            kubeadm(
                k ->
                    of(
                        true,
                        "containerd's runc uses the systemd cgroup driver, as kubelet does under"
                            + " kubeadm."))));
    l.add(
        cluster(
            "kubernetes_node_name",
            k8s(
                k ->
                    k.eks()
                        ? of(jinja("{{ gpugen_private_dns | default(ansible_facts['fqdn']) }}"))
                        : k.kubeadm()
                            ? of(
                                jinja("{{ ansible_facts['nodename'] }}"),
                                "The host's node name in Kubernetes: kubeadm's kubelet registers"
                                    + " the host name.")
                            : of(
                                jinja(
                                    "{{ gpugen_private_dns | default(ansible_facts['nodename'])"
                                        + " }}"),
                                "The host's node name in your cluster: on EC2 the private DNS name"
                                    + " (gpugen-inventory's",
                                "gpugen_private_dns), as EKS and the AWS cloud provider name nodes;"
                                    + " elsewhere the host name.",
                                "Set kubernetes_node_name per host if your cluster names its nodes"
                                    + " otherwise."))));
  }

  /** Play 03: the GPU Operator (or the ArgoCD Applications that install it) and its settings. */
  private static void gpuOperator(List<AnsibleVarItem> l) {
    l.add(clusterHeading("03 GPU operator"));
    l.add(
        cluster(
            "gpu_operator_argocd_namespace",
            gitops(
                true,
                p ->
                    of(
                        new ArgoCdView(p).namespace(),
                        "GitOps (gitops.argocd): ArgoCD installs the operator from argocd/; play 03"
                            + " only checks that",
                        "these Applications are Synced and Healthy."))));
    l.add(
        cluster(
            "gpu_operator_argocd_applications",
            gitops(true, p -> of(new ArgoCdView(p).applicationNames()))));
    l.add(
        cluster(
            "gpu_operator_version",
            gitops(false, p -> of(p.spec().software().gpuOperator().version()))));
    l.add(
        cluster(
            "gpu_operator_device_plugin_replicas",
            gitops(
                false,
                p -> {
                  Map<String, Object> replicas =
                      new TreeMap<>(GpuOperatorValues.devicePluginReplicas(p));
                  return replicas.isEmpty()
                      ? of(replicas)
                      : of(
                          replicas,
                          "The device plugin's ConfigMap entries and their time-slicing replicas:"
                              + " \"any\" for every node,",
                          "and one per pool whose replicas differ (its nodes carry the"
                              + " nvidia.com/device-plugin.config",
                          "label).");
                })));
    l.add(
        cluster(
            "gpu_operator_values",
            gitops(
                false,
                p ->
                    of(
                        new Tree(new ArgoCdView(p).operatorValues()),
                        "The chart values; argocd/apps/gpu-operator.yaml carries the same tree when"
                            + " GitOps is on."))));
    l.add(
        cluster(
            "gpu_operator_nccl_conf",
            operatorK8s(
                p ->
                    of(
                        p.ncclConf(),
                        "The NCCL settings pods mount (ConfigMap gpugen-nccl-conf, key nccl.conf),"
                            + " and the EFA device",
                        "plugin on EFA fabrics."))));
    l.add(cluster("gpu_operator_efa_device_plugin", operatorK8s(p -> of(p.efaPools()))));
    l.add(
        cluster(
            "gpu_operator_rdma_device_plugin",
            operatorK8s(
                p ->
                    p.rdmaDevicePlugin()
                        ? of(
                            true,
                            "InfiniBand/RoCE pools: the RDMA shared device plugin gives pods the"
                                + " HCAs.")
                        : Optional.empty())));
    l.add(
        cluster(
            "gpu_operator_node_tolerations",
            operatorK8s(
                p -> {
                  List<Map<String, Object>> out = new ArrayList<>();
                  for (dev.gpugen.plan.Toleration t : p.gpuNodeTolerations()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("key", t.key());
                    m.put("operator", t.operator());
                    if (t.operator().equals("Equal")) {
                      m.put("value", t.value());
                    }
                    m.put("effect", t.effect());
                    out.add(m);
                  }
                  return out.isEmpty()
                      ? Optional.empty()
                      : of(
                          out,
                          "What every node-level DaemonSet gpugen installs tolerates (the EFA and"
                              + " RDMA device plugins; the",
                          "GPU Operator's operands and NFD's worker get the same list in"
                              + " gpu_operator_values): every GPU",
                          "pool's taint, and play 05's verdict taint.");
                })));

    l.add(poolHeading());
    l.add(
        pool(
            "gpu_operator_node_labels",
            poolNodes((p, pp) -> of(new TreeMap<>(nodeLabels(p, pp))))));
    l.add(
        pool(
            "kubeadm_node_labels",
            poolNodes(
                (p, pp) -> {
                  Map<String, String> kubelet =
                      dev.gpugen.plan.Scheduling.kubeletLabels(new TreeMap<>(nodeLabels(p, pp)));
                  return p.kubeadm() && !kubelet.isEmpty()
                      ? of(
                          new TreeMap<>(kubelet),
                          "The labels kubelet registers the node with (--node-labels): the pool's"
                              + " but those of the",
                          "kubernetes.io and k8s.io namespaces kubelet may not give itself, which"
                              + " play 03 sets.")
                      : Optional.empty();
                })));
    l.add(
        pool(
            "gpu_operator_node_taints",
            poolNodes(
                (p, pp) -> {
                  List<Map<String, Object>> out = new ArrayList<>();
                  for (ClusterSpec.Taint t : pp.pool().taints()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("key", t.key());
                    m.put("value", t.value().orElse(""));
                    m.put("effect", t.effect());
                    out.add(m);
                  }
                  return of(out);
                })));

    l.add(poolHeading("What play 05 expects the scheduler to see on each node of the pool."));
    l.add(pool("kubernetes_checks_gpus", poolK8s(pp -> of(pp.hardware().gpus()))));
    l.add(
        pool(
            "kubernetes_checks_time_slicing_replicas",
            poolK8s(pp -> of(pp.timeSlicingReplicas()))));
    l.add(pool("kubernetes_checks_efa_interfaces", poolK8s(pp -> of(pp.efaInterfaces()))));
    l.add(
        pool(
            "rdma_checks_enabled",
            rdmaChecks(
                pp ->
                    of(
                        true,
                        "Play 05: NCCL over the pool's HCAs inside a pod on its first node."))));
    l.add(pool("rdma_checks_group", rdmaChecks(pp -> of(pp.group()))));
  }

  /** Play 05's expectations and thresholds: the cluster's, each pool's resolved over them. */
  private static void validation(List<AnsibleVarItem> l) {
    l.add(
        new Heading(
            Optional.of(
                List.of("05 validation (cluster default; a pool's file overrides the thresholds)")),
            Optional.of(List.of())));
    l.add(pool("validation_fabric", poolNodes((p, pp) -> of(pp.pool().fabric().spelling()))));
    l.add(
        pool(
            "validation_nccl_group",
            poolNodes(
                (p, pp) ->
                    of(
                        pp.allReduceGroup(),
                        "The multi-node all-reduce runs once per group: this pool's nodes (in its"
                            + " placement group)."))));
    l.add(pool("validation_bootstrap_interface", fabric(f -> of(f.bootstrapInterface()))));
    l.add(
        pool(
            "validation_nccl_gdr_required",
            fabric(
                f ->
                    f.gdrRequired()
                        ? of(
                            true,
                            "GPUDirect RDMA: the multi-node log must show the fabric's NET"
                                + " connections marked GDRDMA",
                            "(InfiniBand/RoCE, and EFA types aws-ofi-nccl marks gdr_required).")
                        : Optional.empty())));
    // On GKE every pool's file sets it (null: reported only); elsewhere only a pool with one.
    l.add(
        pool(
            "validation_nccl_min_multi_node_bus_bandwidth_gbps",
            (p, pp) -> {
              Optional<String> gbps = pp.minMultiNodeBusBandwidthGbps().map(AnsibleVar::number);
              if (p.gke()) {
                return of(gbps.isPresent() ? gbps.get() : null);
              }
              return gbps.flatMap(
                  g ->
                      of(
                          g,
                          "The multi-node threshold: validation.ncclAllReduce.minMultiNodeBusBandwidthGBps,"
                              + " else on",
                          "InfiniBand/RoCE 80% of the lower of what the HCAs carry (ports x Gb/s /"
                              + " 8) and the GPUs'",
                          "single-node figure."));
            }));
    l.add(pool("validation_gpu_count", poolNodes((p, pp) -> of(pp.hardware().gpus()))));
    l.add(
        pool(
            "validation_compute_capability",
            poolNodes((p, pp) -> of(pp.hardware().computeCapability()))));
    l.add(pool("validation_efa_interfaces", poolNodes((p, pp) -> of(pp.efaInterfaces()))));
    l.add(
        pool(
            "validation_fabric_manager",
            poolNodes((p, pp) -> of(pp.hardware().fabricStateReported()))));
    l.add(software("validation_expected_driver_version", s -> of(s.driver())));
    l.add(software("validation_expected_cuda_version", s -> of(s.cuda())));
    l.add(software("validation_expected_container_toolkit_version", s -> of(s.containerToolkit())));
    l.add(thresholds("validation_gpu_burn_seconds", false, v -> of(v.gpuBurnSeconds())));
    l.add(thresholds("validation_dcgm_diag_level", true, v -> of(v.dcgmDiagLevel())));
    l.add(thresholds("validation_nccl_min_bytes", true, v -> of(v.minBytes())));
    l.add(thresholds("validation_nccl_max_bytes", true, v -> of(v.maxBytes())));
    l.add(
        override(
            "validation_nccl_min_bus_bandwidth_gbps",
            p -> of(busBandwidth(p.spec().validation().minBusBandwidthGBps())),
            (p, pp) -> of(busBandwidth(pp.minBusBandwidthGBps()))));
    l.add(
        thresholds(
            "validation_outlier_percent", false, v -> of(new Raw(number(v.outlierPercent())))));
    l.add(thresholds("validation_outlier_fails", false, v -> of(v.outlierFails())));
    l.add(
        override(
            "validation_scheduling_gate",
            p ->
                ValidationState.applies(p)
                    ? of(p.spec().validation().gateScheduling())
                    : Optional.empty(),
            (p, pp) ->
                ValidationState.applies(p)
                    ? of(ValidationState.gates(p, pp) && pp.pool().validation().gateScheduling())
                    : Optional.empty()));
  }

  /** GKE: plays 03-05 check the cluster through its API; what they expect of it and each pool. */
  private static void gke(List<AnsibleVarItem> l) {
    l.add(
        new Heading(
            Optional.of(List.of("GKE checks (plays 03-05 against the cluster's Kubernetes API)")),
            Optional.of(
                List.of(
                    "GKE checks: the node pool, what each of its nodes must advertise, and how a"
                        + " pod lands there."))));
    l.add(cluster("gke_checks_context", gkeCluster(v -> of(v.gkeContext()))));
    l.add(cluster("gke_checks_gpu_operator", gkeCluster(v -> of(v.gkeGpuOperator()))));
    l.add(
        cluster(
            "gke_checks_dcgm_image",
            gkeCluster(
                v ->
                    v.gkeDcgmImage().isEmpty()
                        ? Optional.empty()
                        : of(
                            v.gkeDcgmImage(),
                            "dcgmi of the DCGM release whose host engine the GPU Operator runs on"
                                + " every GPU node."))));
    l.add(
        cluster(
            "gke_checks_nccl_conf",
            gkeCluster(
                v -> of(v.ncclConf(), "/etc/nccl.conf as gke-nccl.tf's ConfigMap must hold it."))));
    l.add(pool("gke_checks_node_pool", gkePool(g -> of(g.nodePool()))));
    l.add(pool("gke_checks_gpus", gkePool(g -> of(g.gpus()))));
    l.add(pool("gke_checks_time_slicing_replicas", gkePool(g -> of(g.timeSlicingReplicas()))));
    l.add(pool("gke_checks_allocatable_gpus", gkePool(g -> of(g.allocatableGpus()))));
    l.add(pool("gke_checks_job_gpus", gkePool(g -> of(g.jobGpus()))));
    l.add(pool("gke_checks_min_nodes", gkePool(g -> of(g.minNodes()))));
    l.add(pool("gke_checks_job_name", gkePool(g -> of(g.jobName()))));
    l.add(
        pool(
            "gke_checks_multi_node",
            gkePool(
                g ->
                    of(
                        g.multiNode(),
                        "Play 05's all-reduce across the pool's nodes: on this many (0: none; one"
                            + " node, or shared GPUs)."))));
    l.add(pool("gke_checks_allreduce_name", gkePool(g -> of(g.allReduceName()))));
    l.add(
        pool(
            "gke_checks_skip_reason",
            gkePool(
                g ->
                    of(
                        g.skipReason(),
                        "Why play 05 runs no Job on this pool (\"\" when it does)."))));
    l.add(
        pool(
            "gke_checks_tolerations",
            gkePool(
                g -> {
                  List<Map<String, Object>> out = new ArrayList<>();
                  for (GkeChecksView.Toleration t : g.tolerations()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("key", t.key());
                    m.put("operator", t.operator());
                    if (!t.value().isEmpty()) {
                      m.put("value", t.value());
                    }
                    m.put("effect", t.effect());
                    out.add(m);
                  }
                  return of(out);
                })));
  }

  // What decides whether a variable is written, and the facts its value comes from.

  /** Only where gpugen configures the nodes (not GKE, whose nodes are GKE's). */
  private static Function<ClusterPlan, Optional<Value>> nodes(
      Function<ClusterPlan, Optional<Value>> f) {
    return p -> p.gke() ? Optional.empty() : f.apply(p);
  }

  private static BiFunction<ClusterPlan, PoolPlan, Optional<Value>> poolNodes(
      BiFunction<ClusterPlan, PoolPlan, Optional<Value>> f) {
    return (p, pp) -> p.gke() ? Optional.empty() : f.apply(p, pp);
  }

  /** A software version: the cluster's in all.yml, the pool's own in its file. */
  private static AnsibleVar software(
      String name, Function<ClusterSpec.Software, Optional<Value>> f) {
    return override(
        name,
        nodes(p -> f.apply(p.spec().software())),
        poolNodes((p, pp) -> f.apply(pp.pool().software())));
  }

  /** A validation threshold; {@code gke}: set on GKE too, where play 05 runs as a Job. */
  private static AnsibleVar thresholds(
      String name, boolean gke, Function<ClusterSpec.Validation, Optional<Value>> f) {
    Predicate<ClusterPlan> when = p -> gke || !p.gke();
    return override(
        name,
        p -> when.test(p) ? f.apply(p.spec().validation()) : Optional.empty(),
        (p, pp) -> when.test(p) ? f.apply(pp.pool().validation()) : Optional.empty());
  }

  private static Object busBandwidth(Optional<Double> gbps) {
    return gbps.isPresent() ? new Raw(number(gbps.get())) : null;
  }

  private static BiFunction<ClusterPlan, PoolPlan, Optional<Value>> fabric(
      Function<FabricVars, Optional<Value>> f) {
    return poolNodes((p, pp) -> f.apply(FabricVars.of(p, pp)));
  }

  private static AnsibleVar preflight(String name, Function<FabricVars, String> f) {
    return pool(name, fabric(v -> v.preflight() ? of(f.apply(v)) : Optional.empty()));
  }

  /** A host_tuning variable: all three are written when the pool sets any. */
  private static AnsibleVar tuning(String name, Function<FabricVars, String> f, String... comment) {
    return pool(
        name,
        fabric(
            v ->
                v.cpuGovernor().isEmpty() && v.hugepages().isEmpty() && v.gpuClocks().isEmpty()
                    ? Optional.empty()
                    : of(f.apply(v), comment)));
  }

  private static Function<ClusterPlan, Optional<Value>> k8s(
      Function<AnsibleView.KubernetesVars, Optional<Value>> f) {
    return nodes(
        p -> {
          AnsibleView.KubernetesVars k = new AnsibleView(p).kubernetes();
          return k.enabled() ? f.apply(k) : Optional.empty();
        });
  }

  private static Function<ClusterPlan, Optional<Value>> kubeadm(
      Function<AnsibleView.KubernetesVars, Optional<Value>> f) {
    return k8s(k -> k.kubeadm() ? f.apply(k) : Optional.empty());
  }

  /** Play 03's settings with GitOps ({@code on}) or without. */
  private static Function<ClusterPlan, Optional<Value>> gitops(
      boolean on, Function<ClusterPlan, Optional<Value>> f) {
    return nodes(p -> p.spec().gitops().isPresent() == on ? f.apply(p) : Optional.empty());
  }

  /** What play 03 installs beside the operator in the cluster the spec names (not with GitOps). */
  private static Function<ClusterPlan, Optional<Value>> operatorK8s(
      Function<ClusterPlan, Optional<Value>> f) {
    return gitops(
        false, p -> new AnsibleView(p).kubernetes().enabled() ? f.apply(p) : Optional.empty());
  }

  private static BiFunction<ClusterPlan, PoolPlan, Optional<Value>> poolK8s(
      Function<PoolPlan, Optional<Value>> f) {
    return poolNodes(
        (p, pp) -> new AnsibleView(p).kubernetes().enabled() ? f.apply(pp) : Optional.empty());
  }

  private static BiFunction<ClusterPlan, PoolPlan, Optional<Value>> rdmaChecks(
      Function<PoolPlan, Optional<Value>> f) {
    return (p, pp) ->
        pp.verbs() && p.rdmaDevicePlugin() ? poolK8s(f).apply(p, pp) : Optional.empty();
  }

  private static Function<ClusterPlan, Optional<Value>> gkeCluster(
      Function<GkeChecksView, Optional<Value>> f) {
    return p -> p.gke() ? f.apply(new GkeChecksView(p)) : Optional.empty();
  }

  private static BiFunction<ClusterPlan, PoolPlan, Optional<Value>> gkePool(
      Function<GkeChecksView.GkePool, Optional<Value>> f) {
    return (p, pp) ->
        p.gke() ? f.apply(new GkeChecksView(p).pool(pp.pool().name())) : Optional.empty();
  }

  /**
   * The Kubernetes labels of a pool's nodes: the plan's (the spec's, and the instance type where no
   * cloud provider sets it), plus the device plugin's per-node config label where the pool's
   * time-slicing differs from the cluster's.
   */
  static Map<String, String> nodeLabels(ClusterPlan plan, PoolPlan pp) {
    Map<String, String> labels = new TreeMap<>(plan.nodeLabels(pp));
    GpuOperatorValues.poolConfigKey(plan, pp)
        .ifPresent(k -> labels.put(GpuOperatorValues.CONFIG_LABEL, k));
    return labels;
  }

  /**
   * One registry containerd pulls from a mirror: {@code
   * /etc/containerd/certs.d/REGISTRY/hosts.toml} (containerd's registry host configuration,
   * docs/hosts.md: https://github.com/containerd/containerd/blob/main/docs/hosts.md).
   *
   * @param registry the registry as image references name it (the folder's name)
   * @param server the registry's own URL, containerd's fallback ({@code server}); docker.io's is
   *     registry-1.docker.io, as hosts.md's example has it
   * @param url the mirror ({@code [host."URL"]})
   * @param overridePath whether the URL's path is the registry API root ({@code override_path}): a
   *     mirror with a path, such as a Harbor proxy project or an Artifactory repository
   */
  public record RegistryMirror(String registry, String server, String url, boolean overridePath) {}

  /** The registry mirrors play 02 configures (empty on GKE, whose nodes gpugen does not set up). */
  static List<RegistryMirror> registryMirrors(ClusterPlan plan) {
    List<RegistryMirror> out = new ArrayList<>();
    plan.sources()
        .usedRegistryMirrors()
        .forEach(
            (registry, url) ->
                out.add(
                    new RegistryMirror(
                        registry,
                        registry.equals("docker.io")
                            ? "https://registry-1.docker.io"
                            : "https://" + registry,
                        url,
                        url.replaceFirst("^https?://[^/]+", "").length() > 0)));
    return out;
  }
}
