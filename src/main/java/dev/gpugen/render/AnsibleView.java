package dev.gpugen.render;

import dev.gpugen.inventory.InventoryBuilder;
import dev.gpugen.inventory.InventoryFile;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.plan.Scheduling;
import dev.gpugen.plan.ValidationState;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.ClusterSpec.Pool;
import dev.gpugen.spec.ClusterSpec.Software;
import dev.gpugen.spec.Market;
import dev.gpugen.spec.Provider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the Ansible templates need: the spec's values under the role variable names (role-prefixed,
 * as ansible-lint's var-naming rule wants), cluster-wide in group_vars/all.yml and per pool in
 * group_vars/pool_NAME.yml.
 */
public final class AnsibleView {
  private final ClusterPlan plan;
  private final ClusterSpec spec;

  AnsibleView(ClusterPlan plan) {
    this.plan = plan;
    this.spec = plan.spec();
  }

  /** A key and its value, for templates that loop over sorted maps. */
  public record Entry(String key, String value) {}

  /**
   * The per-pool values, with the pool's software and validation thresholds resolved over the
   * cluster's.
   */
  public record PoolVars(
      String name,
      String group,
      String instanceType,
      int count,
      Market market,
      String fabric,
      PoolFacts facts,
      SoftwareVars software,
      ValidationVars validation,
      List<Entry> labels,
      List<Entry> kubeletLabels,
      List<ClusterSpec.Taint> taints,
      String allReduceGroup,
      LocalNvmeVars localNvme) {}

  /**
   * pools[].localNvme as the local_nvme role names it.
   *
   * @param enabled whether the pool's nodes build the array (localNvme with raid0 true)
   * @param mount where it is mounted
   * @param containerd whether containerd's root is bind-mounted onto it
   */
  public record LocalNvmeVars(boolean enabled, String mount, boolean containerd) {}

  /** Whether some pool's nodes build a RAID 0 array of their instance store (AWS). */
  public boolean localNvme() {
    return plan.pools().stream().anyMatch(p -> localNvme(p).enabled());
  }

  private LocalNvmeVars localNvme(PoolPlan pp) {
    return pp.pool()
        .localNvme()
        .filter(n -> n.raid0() && plan.aws())
        .map(n -> new LocalNvmeVars(true, n.mount(), n.containerd()))
        .orElse(new LocalNvmeVars(false, "", false));
  }

  /**
   * Software versions plus the package names derived from them.
   *
   * @param driverCudaMajor the newest CUDA major the driver branch runs (the compat table's
   *     max_cuda_major; the toolkit's major where the table does not know the branch): DCGM is
   *     built per the driver's CUDA major
   */
  public record SoftwareVars(
      String os,
      String driver,
      String driverBranch,
      String driverCudaMajor,
      String cuda,
      String cudaPackage,
      String containerToolkit,
      String kernelModules,
      String gpuOperatorVersion,
      boolean dcgmExporter,
      boolean migManager,
      int timeSlicingReplicas) {}

  /**
   * Play 05's thresholds, under the validation role's variable names.
   *
   * @param minBusBandwidthGBps the threshold as YAML writes it; empty when none is set (play 05
   *     then reports the bandwidth without failing on it)
   */
  public record ValidationVars(
      int gpuBurnSeconds,
      int dcgmDiagLevel,
      String minBytes,
      String maxBytes,
      String minBusBandwidthGBps,
      String outlierPercent,
      boolean outlierFails,
      boolean gateScheduling) {}

  public String cluster() {
    return spec.metadata().name();
  }

  public String environment() {
    return spec.metadata().environment().orElse("");
  }

  public String provider() {
    return spec.cloud().provider().spelling();
  }

  public SoftwareVars software() {
    return software(spec.software(), plan.clusterKernelModules());
  }

  public boolean blacklistNouveau() {
    return spec.kernel().blacklistNouveau();
  }

  public List<Entry> sysctl() {
    return entries(spec.kernel().sysctl());
  }

  public List<Entry> ncclEnv() {
    return entries(spec.nccl().env());
  }

  /** The cluster-wide thresholds; each pool's group vars carry its own resolved ones. */
  public ValidationVars validation() {
    return validation(spec.validation(), ValidationState.applies(plan));
  }

  public int forks() {
    return spec.ansible().forks();
  }

  /**
   * gpugen-inventory.json, the settings of the dynamic inventory beside it: which cluster's
   * instances to list, and what each pool is expected to run (hosts get them as gpugen_* vars).
   * Empty (no file) for clusters that are not on EC2.
   */
  public Map<String, Object> inventoryConfig() {
    if (!plan.aws()) {
      return Map.of();
    }
    TreeMap<String, InventoryFile.Pool> pools = new TreeMap<>();
    for (Pool p : spec.pools()) {
      pools.put(
          p.name(),
          new InventoryFile.Pool(
              p.instanceType(),
              p.software().driver(),
              p.software().cuda(),
              p.software().containerToolkit()));
    }
    return InventoryFile.rendered(
            spec.metadata().name(),
            spec.metadata().environment(),
            spec.cloud().region().orElseThrow(),
            pools,
            spec.connection().method().spelling(),
            plan.ssmBucketPrefix(),
            spec.connection()
                .bastion()
                .filter(b -> !spec.connection().ssm())
                .map(ClusterSpec.Bastion::proxyJump),
            Optional.of(loginUser()).filter(u -> !u.isEmpty() && !spec.connection().ssm()))
        .toJson();
  }

  /** Whether the controller reaches the nodes through SSM (community.aws.aws_ssm). */
  public boolean ssmConnection() {
    return plan.ssmConnection();
  }

  /** A static host as inventory.yml lists it: its name and its variables, sorted. */
  public record StaticHost(String name, List<Entry> vars) {}

  /** An inventory group and its hosts, sorted. */
  public record Group(String name, List<String> hosts) {}

  /**
   * The login user of EC2 nodes: Canonical's Ubuntu AMIs accept only {@code ubuntu}
   * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/managing-users.html, "For an Ubuntu AMI,
   * the user name is ubuntu"). Empty for static hosts and GKE (their inventories say) and for an OS
   * gpugen does not know.
   */
  public String loginUser() {
    boolean ec2 = spec.cloud().provider() == Provider.AWS;
    boolean ubuntu =
        spec.cloud().image().startsWith("ubuntu-") || spec.software().os().startsWith("ubuntu");
    return ec2 && ubuntu ? "ubuntu" : "";
  }

  /**
   * Whether the nodes are static hosts listed in inventory.yml (no cloud, no dynamic inventory).
   */
  public boolean staticHosts() {
    return plan.staticHosts();
  }

  /**
   * The hosts of inventory.yml, with the {@code gpugen_*} variables gpugen-inventory gives EC2
   * hosts where they apply to bare metal, then the spec's per-host vars. Empty unless static.
   */
  public List<StaticHost> inventoryHosts() {
    List<StaticHost> out = new ArrayList<>();
    if (!staticHosts()) {
      return out;
    }
    // A GPU host that is also a control-plane host (spec-pool-shape allows a name twice only as the
    // same machine) keeps its GPU entry and is only added to the group. The control plane: its
    // address and the spec's vars only (no GPU pool, no gpugen_* vars).
    java.util.Set<String> listed = new TreeSet<>();
    for (ClusterPlan.HostEntry e : plan.hostEntries()) {
      boolean gpu = e.pool().isPresent();
      if ((gpu || kubeadm()) && listed.add(e.host().name())) {
        ClusterSpec.Host h = e.host();
        Map<String, String> vars = new TreeMap<>(h.vars());
        vars.put("ansible_host", h.address());
        vars.put("gpugen_name", h.name());
        if (gpu) {
          putPoolVars(vars, plan.pool(e.pool().get()).pool());
        }
        out.add(new StaticHost(h.name(), entries(vars)));
      }
    }
    out.sort(java.util.Comparator.comparing(StaticHost::name));
    return out;
  }

  /**
   * The groups of inventory.yml: gpu_nodes, pool_NAME per pool, and on_demand or spot, as
   * gpugen-inventory names them. Empty unless static; groups without hosts are left out.
   */
  public List<Group> inventoryGroups() {
    Map<String, TreeSet<String>> groups = new TreeMap<>();
    if (!staticHosts()) {
      return List.of();
    }
    for (ClusterPlan.HostEntry e : plan.hostEntries()) {
      List<String> of =
          e.pool().isPresent()
              ? poolGroups(plan.pool(e.pool().get()).pool())
              : kubeadm() ? List.of(CONTROL_PLANE_GROUP) : List.of();
      for (String g : of) {
        groups.computeIfAbsent(g, k -> new TreeSet<>()).add(e.host().name());
      }
    }
    List<Group> out = new ArrayList<>();
    groups.forEach((g, hosts) -> out.add(new Group(g, List.copyOf(hosts))));
    return out;
  }

  /**
   * The kubernetes: section as the node plays see it.
   *
   * @param enabled whether the spec names a cluster (else plays 03-05 skip their Kubernetes parts)
   * @param distribution eks, kubeadm or existing; empty when not enabled
   * @param eks whether the control plane is EKS (the nodes get its bootstrap settings)
   * @param version the Kubernetes minor; empty when not enabled
   * @param kubeadm whether play 02b bootstraps the cluster with kubeadm (static hosts)
   * @param cni kubeadm: cilium or calico; else empty
   * @param podCidr kubeadm: kubeadm init's --pod-network-cidr, which the CNI's IPAM uses; else
   *     empty
   * @param serviceCidr kubeadm: kubeadm init's --service-cidr; else empty
   * @param controlPlaneEndpoint kubeadm: kubeadm init's --control-plane-endpoint, the spec's
   *     controlPlane.endpoint or else the first control-plane host's address; else empty
   * @param apiServerCertSan kubeadm: the endpoint's host, an extra SAN of the API server's
   *     certificate; else empty
   * @param aws kubeadm on aws: the control plane is instances the Terraform creates, and the
   *     endpoint is known only once they exist (play 02b reads it from the inventory; the two
   *     strings above are then empty)
   * @param awsLoadBalancer kubeadm on aws with more than one control-plane instance: the endpoint
   *     is the internal load balancer's (host variable gpugen_kube_endpoint), else the first
   *     instance's private address
   */
  public record KubernetesVars(
      boolean enabled,
      String distribution,
      boolean eks,
      String version,
      boolean kubeadm,
      String cni,
      String podCidr,
      String serviceCidr,
      String controlPlaneEndpoint,
      String apiServerCertSan,
      boolean aws,
      boolean awsLoadBalancer) {}

  /** The inventory group of the kubeadm control-plane hosts (play 02b). */
  public static final String CONTROL_PLANE_GROUP = InventoryBuilder.CONTROL_PLANE;

  /** The cluster the GPU nodes join; never on GKE, whose checks are gke_checks'. */
  public KubernetesVars kubernetes() {
    return spec.kubernetes()
        .filter(k -> !gke())
        .map(
            k ->
                !kubeadm()
                    ? new KubernetesVars(
                        true,
                        k.distribution().spelling(),
                        k.eks(),
                        k.version(),
                        false,
                        "",
                        "",
                        "",
                        "",
                        "",
                        false,
                        false)
                    : plan.aws()
                        ? new KubernetesVars(
                            true,
                            k.distribution().spelling(),
                            k.eks(),
                            k.version(),
                            true,
                            k.cni().spelling(),
                            plan.kubeadmNetwork().orElseThrow().podCidr(),
                            plan.kubeadmNetwork().orElseThrow().serviceCidr(),
                            "",
                            "",
                            true,
                            k.controlPlaneCount() > 1)
                        : new KubernetesVars(
                            true,
                            k.distribution().spelling(),
                            k.eks(),
                            k.version(),
                            true,
                            k.cni().spelling(),
                            plan.kubeadmNetwork().orElseThrow().podCidr(),
                            plan.kubeadmNetwork().orElseThrow().serviceCidr(),
                            controlPlaneEndpoint(k),
                            controlPlaneEndpointHost(k),
                            false,
                            false))
        .orElse(new KubernetesVars(false, "", false, "", false, "", "", "", "", "", false, false));
  }

  /** The spec's endpoint (HOST:PORT), else the first control-plane host's address. */
  private static String controlPlaneEndpoint(ClusterSpec.Kubernetes k) {
    return k.controlPlaneEndpoint().orElse(k.controlPlaneHosts().get(0).address());
  }

  /** The endpoint's host: the grammar's HOST:PORT has no ':' in HOST (IPv4 or a DNS name). */
  private static String controlPlaneEndpointHost(ClusterSpec.Kubernetes k) {
    return k.controlPlaneEndpoint()
        .map(e -> e.substring(0, e.lastIndexOf(':')))
        .orElse(k.controlPlaneHosts().get(0).address());
  }

  /**
   * Whether play 02b bootstraps the cluster: kubeadm on static hosts with a control-plane host, or
   * on aws, where the Terraform creates the control-plane instances (the linter refuses kubeadm
   * anywhere else).
   */
  public boolean kubeadm() {
    return plan.kubeadm();
  }

  /**
   * FSx for Lustre as the node plays see it.
   *
   * @param enabled whether the nodes mount a file system the Terraform creates (else no Lustre task
   *     or variable is rendered)
   * @param mountPoint storage.lustre.mountPoint; empty when not enabled
   */
  public record LustreVars(boolean enabled, String mountPoint) {}

  /** The file system the nodes mount; its address comes from each node's tags, not the spec. */
  public LustreVars lustre() {
    return plan.lustre()
        .map(l -> new LustreVars(true, l.mountPoint()))
        .orElse(new LustreVars(false, ""));
  }

  /**
   * The vpc.amazonaws.com/efa count a pool's nodes must advertise: the EFA interfaces the plan
   * attaches to each node, 0 on TCP pools (not checked).
   */
  public int schedulerEfaInterfaces(PoolVars pool) {
    return plan.pool(pool.name()).efaInterfaces();
  }

  /**
   * The time-slicing replicas the device plugin applies on pool {@code name}'s nodes: its own,
   * through the per-node config label where they differ from the cluster's (play 03's ConfigMap has
   * an entry per such pool), so play 05 expects what is deployed.
   */
  public int schedulerTimeSlicingReplicas(String name) {
    return plan.pool(name).timeSlicingReplicas();
  }

  /**
   * What every node-level DaemonSet gpugen installs tolerates (the plan's one list): the GPU pools'
   * taints.
   */
  public List<dev.gpugen.plan.Toleration> gpuNodeTolerations() {
    return plan.gpuNodeTolerations();
  }

  /**
   * Whether some pool's fabric is EFA: play 04 then installs the AWS EFA device plugin and carries
   * the GDRCopy install that AWS's EFA and NCCL guide adds for Libfabric (its tasks still run only
   * on the EFA pools' hosts).
   */
  public boolean efaPools() {
    return plan.efaPools();
  }

  /** Pool {@code name}'s fabric and host settings (for the per-pool group_vars template). */
  public FabricVars fabric(String name) {
    return FabricVars.of(plan, plan.pool(name));
  }

  /** Whether some pool's fabric is InfiniBand or RoCE. */
  public boolean verbsPools() {
    return plan.verbsPools();
  }

  /** Whether play 03 deploys the RDMA shared device plugin and play 05 runs NCCL in a pod. */
  public boolean rdmaDevicePlugin() {
    return plan.rdmaDevicePlugin();
  }

  /** Whether play 00 starts with the InfiniBand/RoCE preflight (some pool asks for it). */
  public boolean preflight() {
    return plan.pools().stream().anyMatch(p -> FabricVars.of(plan, p).preflight());
  }

  /** Whether play 00 installs DOCA-OFED on some pool's hosts. */
  public boolean docaOfed() {
    return plan.pools().stream().anyMatch(p -> !FabricVars.of(plan, p).docaOfed().isEmpty());
  }

  /** Whether some pool asks for host tuning (plays 00 and 01 then carry the host_tuning role). */
  public boolean hostTuning() {
    return plan.pools().stream().anyMatch(p -> p.pool().tuning().any());
  }

  /**
   * The version of AWS's EFA device plugin chart play 03 installs: the table's pin, whose node
   * affinity the linter checks every EFA pool's instance type against.
   */
  public String efaDevicePluginChartVersion() {
    return plan.compat().efaDevicePlugin().chartVersion();
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
  public List<RegistryMirror> registryMirrors() {
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

  /** Whether the cluster is on GKE: the Ansible side is then cluster-level checks only. */
  public boolean gke() {
    return plan.gke();
  }

  /**
   * The kubeconfig context {@code gcloud container clusters get-credentials} writes for the zonal
   * cluster of the Terraform: {@code gke_PROJECT_ZONE_CLUSTER}. Empty unless on GKE.
   */
  public String gkeContext() {
    if (!gke()) {
      return "";
    }
    ClusterSpec.Cloud c = spec.cloud();
    return "gke_"
        + c.project().orElseThrow()
        + "_"
        + c.availabilityZone().orElseThrow()
        + "_"
        + c.gke().map(ClusterSpec.Gke::cluster).orElse(spec.metadata().name());
  }

  /** Whether the Terraform installs the GPU Operator on GKE (else GKE's driver and plugin). */
  public boolean gkeGpuOperator() {
    return gke() && plan.gkeOperatorDriver();
  }

  /**
   * The DCGM image of play 05's validation Job where the GPU Operator runs the node's host engine:
   * the engine's own release ({@link ClusterPlan#dcgmImage}), so client and engine match; "" for
   * the role's default (GKE's driver, where the Job starts its own engine, or a release the table
   * does not know).
   */
  public String gkeDcgmImage() {
    return gkeGpuOperator() ? plan.dcgmImage().orElse("") : "";
  }

  /**
   * /etc/nccl.conf as gke-nccl.tf's ConfigMap holds it: one KEY=value line per setting, sorted by
   * key, as Terraform's {@code sort(keys(...))} orders them.
   */
  public String ncclConf() {
    return plan.ncclConf();
  }

  /** A toleration for one of a pool's taints (Kubernetes effect names, as the spec writes them). */
  public record Toleration(String key, String operator, String value, String effect) {}

  /**
   * What the GKE checks need about one pool: its node pool (the {@code
   * cloud.google.com/gke-nodepool} label value), the inventory host that stands for it, the
   * nvidia.com/gpu each node must advertise, the fewest nodes it may have, and the tolerations a
   * pod needs to land there.
   *
   * @param allocatableGpus the table's GPU count for the machine type, times the time-slicing
   *     replicas when time-slicing is on
   * @param jobGpus what the validation Job requests: every GPU of a node, or one replica where the
   *     pool time-slices (the device plugin refuses a request above one,
   *     failRequestsGreaterThanOne)
   * @param minNodes the autoscaling minimum, else the fixed node count
   * @param multiNode the nodes play 05's all-reduce across nodes runs on, 0 for none ({@link
   *     PoolPlan#multiNodeValidationNodes})
   * @param allReduceName the name of that Job and of its headless Service
   * @param minMultiNodeBusBandwidthGBps its threshold, "" for none (reported only)
   * @param skipReason why play 05 runs no Job on the pool, "" when it does ({@link
   *     PoolPlan#gkeValidationSkipReason})
   */
  public record GkePool(
      String nodePool,
      String host,
      String group,
      int gpus,
      int timeSlicingReplicas,
      int allocatableGpus,
      int jobGpus,
      int minNodes,
      String jobName,
      List<Toleration> tolerations,
      int multiNode,
      String allReduceName,
      String minMultiNodeBusBandwidthGBps,
      String skipReason) {}

  /** The GKE facts of every pool, in spec order; empty unless on GKE. */
  public List<GkePool> gkePools() {
    List<GkePool> out = new ArrayList<>();
    if (gke()) {
      plan.pools().forEach(p -> out.add(gkePool(p)));
    }
    return out;
  }

  /** The GKE facts of pool {@code name} (for the per-pool group_vars template). */
  public GkePool gkePool(String name) {
    return gkePool(plan.pool(name));
  }

  private GkePool gkePool(PoolPlan pp) {
    Pool p = pp.pool();
    int gpus = pp.hardware().gpus();
    int replicas = pp.timeSlicingReplicas();
    List<Toleration> tolerations = new ArrayList<>();
    for (ClusterSpec.Taint t : p.taints()) {
      tolerations.add(
          t.value().isPresent()
              ? new Toleration(t.key(), "Equal", t.value().get(), t.effect())
              : new Toleration(t.key(), "Exists", "", t.effect()));
    }
    return new GkePool(
        p.name(),
        "gke_nodepool_" + pp.tfPrefix(),
        pp.group(),
        gpus,
        replicas,
        pp.allocatableGpus(),
        replicas > 1 ? 1 : gpus,
        pp.minNodes(),
        "gpugen-validate-" + p.name(),
        tolerations,
        pp.multiNodeValidationNodes(),
        "gpugen-allreduce-" + p.name(),
        pp.minMultiNodeBusBandwidthGbps().map(AnsibleView::number).orElse(""),
        pp.gkeValidationSkipReason().orElse(""));
  }

  /**
   * Whether play 05 puts its verdict on the Kubernetes nodes (labels, the failure taint) and play
   * 03 gates never-validated nodes of pools that ask for it: role validation_scheduling.
   */
  public boolean validationState() {
    return ValidationState.applies(plan);
  }

  /** Whether the render includes what a node needs to configure itself (pull mode, AWS). */
  public boolean pull() {
    return plan.pullMode();
  }

  /**
   * The variables of the one host in a pulling node's local inventory: the connection, and the
   * {@code gpugen_*} variables gpugen-inventory gives an EC2 host of the pool (those a node knows
   * before it asks EC2; the host name is {@code localhost}).
   */
  public List<Entry> pullHostVars(String poolName) {
    Pool p = plan.pool(poolName).pool();
    Map<String, String> vars = new TreeMap<>();
    vars.put("ansible_connection", "local");
    vars.put("gpugen_instance_type", p.instanceType());
    // The node has no gpugen to draw the fleet's page with; its report goes to S3 instead.
    vars.put("validation_results_page", "false");
    putPoolVars(vars, p);
    return entries(vars);
  }

  /** The {@code gpugen_*} host variables every host of pool {@code p} carries, as on EC2. */
  private void putPoolVars(Map<String, String> vars, Pool p) {
    vars.put("gpugen_cluster", spec.metadata().name());
    spec.metadata().environment().ifPresent(e -> vars.put("gpugen_environment", e));
    vars.put("gpugen_lifecycle", p.market().spelling());
    vars.put("gpugen_pool", p.name());
    vars.put("gpugen_expected_driver", p.software().driver());
    vars.put("gpugen_expected_cuda", p.software().cuda());
    vars.put("gpugen_expected_container_toolkit", p.software().containerToolkit());
  }

  /** The groups of a pulling node of the pool, as gpugen-inventory names them, sorted. */
  public List<String> pullGroups(String poolName) {
    Pool p = plan.pool(poolName).pool();
    TreeSet<String> groups = new TreeSet<>(poolGroups(p));
    groups.add(dev.gpugen.plan.GroupName.of("type_", p.instanceType()));
    return List.copyOf(groups);
  }

  /**
   * The groups gpugen-inventory puts every host of pool {@code p} in (its naming, so that push,
   * static and pull inventories agree); hosts with an instance type also get its type_ group.
   */
  private List<String> poolGroups(Pool p) {
    return List.of(
        InventoryBuilder.ALL_NODES,
        plan.pool(p.name()).group(),
        p.spot() ? InventoryBuilder.SPOT : InventoryBuilder.ON_DEMAND);
  }

  public List<PoolVars> pools() {
    List<PoolVars> out = new ArrayList<>();
    plan.pools().forEach(p -> out.add(pool(p)));
    return out;
  }

  PoolVars pool(PoolPlan pp) {
    Pool p = pp.pool();
    return new PoolVars(
        p.name(),
        pp.group(),
        p.instanceType(),
        p.count(),
        p.market(),
        p.fabric().spelling(),
        PoolFacts.of(pp),
        software(p.software(), pp.kernelModules()),
        validation(p.validation(), pp, ValidationState.gates(plan, pp)),
        entries(nodeLabels(pp)),
        entries(Scheduling.kubeletLabels(new TreeMap<>(nodeLabels(pp)))),
        p.taints(),
        pp.allReduceGroup(),
        localNvme(pp));
  }

  private SoftwareVars software(Software s, String kernelModules) {
    return new SoftwareVars(
        s.os(),
        s.driver(),
        ClusterPlan.driverBranch(s),
        plan.driverCudaMajor(s),
        s.cuda(),
        "cuda-toolkit-" + s.cuda().replace('.', '-'),
        s.containerToolkit(),
        kernelModules,
        s.gpuOperator().version(),
        s.gpuOperator().dcgmExporter(),
        s.gpuOperator().migManager(),
        s.devicePlugin().timeSlicingReplicas());
  }

  /**
   * The Kubernetes labels of pool {@code p}'s nodes: the plan's (the spec's, and the instance type
   * where no cloud provider sets it), plus the device plugin's per-node config label where the
   * pool's time-slicing differs from the cluster's.
   */
  private Map<String, String> nodeLabels(PoolPlan pp) {
    Map<String, String> labels = new TreeMap<>(plan.nodeLabels(pp));
    GpuOperatorValues.poolConfigKey(plan, pp)
        .ifPresent(k -> labels.put(GpuOperatorValues.CONFIG_LABEL, k));
    return labels;
  }

  /**
   * The time-slicing replicas of each entry of the device plugin's ConfigMap, by key (empty: no
   * pool time-slices); play 03's template writes each entry's config file from them.
   */
  public List<Entry> devicePluginReplicas() {
    Map<String, String> out = new TreeMap<>();
    GpuOperatorValues.devicePluginReplicas(plan).forEach((k, r) -> out.put(k, r.toString()));
    return entries(out);
  }

  /** {@code gates}: the spec's gateScheduling where gpugen can apply it (ValidationState). */
  private static ValidationVars validation(ClusterSpec.Validation v, boolean gates) {
    return validation(v, v.minBusBandwidthGBps().map(AnsibleView::number).orElse(""), gates);
  }

  private static ValidationVars validation(
      ClusterSpec.Validation v, String minBusBandwidthGBps, boolean gates) {
    return new ValidationVars(
        v.gpuBurnSeconds(),
        v.dcgmDiagLevel(),
        v.minBytes(),
        v.maxBytes(),
        minBusBandwidthGBps,
        number(v.outlierPercent()),
        v.outlierFails(),
        gates && v.gateScheduling());
  }

  /** A pool's thresholds, with the bus-bandwidth one the plan resolves for it. */
  private static ValidationVars validation(ClusterSpec.Validation v, PoolPlan pp, boolean gates) {
    return validation(v, pp.minBusBandwidthGBps().map(AnsibleView::number).orElse(""), gates);
  }

  private static List<Entry> entries(Map<String, String> m) {
    List<Entry> out = new ArrayList<>();
    m.forEach((k, v) -> out.add(new Entry(k, v)));
    return out;
  }

  private static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
