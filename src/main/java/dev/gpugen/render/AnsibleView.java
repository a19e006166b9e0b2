package dev.gpugen.render;

import dev.gpugen.inventory.InventoryBuilder;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.plan.ValidationState;
import dev.gpugen.spec.ClusterSpec;
import java.util.Optional;

/**
 * What the playbooks, site.yml, ansible.cfg and the roles' own templates need: which plays and
 * roles a render carries and the Kubernetes facts they branch on. The group variables are {@link
 * AnsibleVars}'; the inventories {@link InventoryView}'s; the GKE checks {@link GkeChecksView}'s.
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

  /** Whether some pool's nodes build a RAID 0 array of their instance store (AWS). */
  public boolean localNvme() {
    return plan.pools().stream().anyMatch(p -> localNvme(plan, p).isPresent());
  }

  /** Pool {@code pp}'s localNvme where its nodes build the array (raid0, on AWS), else empty. */
  static Optional<ClusterSpec.LocalNvme> localNvme(ClusterPlan plan, PoolPlan pp) {
    return pp.pool().localNvme().filter(n -> n.raid0() && plan.aws());
  }

  public int forks() {
    return spec.ansible().forks();
  }

  /** Whether the controller reaches the nodes through SSM (community.aws.aws_ssm). */
  public boolean ssmConnection() {
    return plan.ssmConnection();
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
   * Whether some pool's fabric is EFA: play 04 then installs the AWS EFA device plugin and carries
   * the GDRCopy install that AWS's EFA and NCCL guide adds for Libfabric (its tasks still run only
   * on the EFA pools' hosts).
   */
  public boolean efaPools() {
    return plan.efaPools();
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

  /** Whether the cluster is on GKE: the Ansible side is then cluster-level checks only. */
  public boolean gke() {
    return plan.gke();
  }

  /**
   * Whether play 05 puts its verdict on the Kubernetes nodes (labels, the failure taint) and play
   * 03 gates never-validated nodes of pools that ask for it: role validation_scheduling.
   */
  public boolean validationState() {
    return ValidationState.applies(plan);
  }
}
