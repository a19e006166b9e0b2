package dev.gpugen.plan;

import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Fabric;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One pool with every fact derived from it, computed once by {@link ClusterPlan#of}.
 *
 * @param pool the pool as the spec resolves it (its software and validation merged over the
 *     cluster's)
 * @param hardware what the compatibility table knows about its machines
 * @param kernelModules the NVIDIA kernel-module flavour to install, {@code open} or {@code
 *     proprietary}: the spec's choice, or for {@code auto} what the GPU requires, else the driver
 *     branch's default
 * @param group the Ansible group of its hosts, {@code pool_NAME} with '-' as '_'
 * @param tfPrefix the pool's name with '-' as '_', for file names (user-data-PREFIX.sh) and the
 *     Terraform addresses of the layout before pools were keyed by name
 * @param placementGroup the placement group Terraform creates for it; empty with placement none and
 *     for a pool launched into a Capacity Reservation (a Capacity Block's instances are placed in
 *     an EC2 UltraCluster by EC2:
 *     https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-using.html)
 * @param timeSlicingReplicas the device plugin's replicas per GPU, at least 1
 * @param launchTemplateNamePrefix the start of its launch template's name (AWS adds a unique
 *     suffix): {@code CLUSTER[-ENV]-POOL-}, with the pool's previous name where it was renamed
 * @param nodes its EC2 instances (AWS), each under a stable key; empty on other providers
 * @param hcaPorts InfiniBand/RoCE: the HCA ports each host must have Active, the spec's or the
 *     GPU's reference system's; empty elsewhere or when neither says
 * @param linkGbps InfiniBand/RoCE: the rate of each of those ports, likewise
 * @param minMultiNodeBusBandwidthGbps the multi-node all-reduce threshold: the pool's validation
 *     value, else on InfiniBand/RoCE {@link #DEFAULT_MULTI_NODE_FRACTION} of the lower of what its
 *     HCAs carry (ports x Gb/s / 8) and the table's single-node figure; empty: reported only
 * @param pinSocketIfname whether nccl.conf pins NCCL_SOCKET_IFNAME to the bootstrap interface:
 *     InfiniBand/RoCE pools whose spec does not set NCCL_SOCKET_IFNAME itself
 */
public record PoolPlan(
    ClusterSpec.Pool pool,
    Hardware hardware,
    String kernelModules,
    String group,
    String tfPrefix,
    Optional<String> placementGroup,
    int timeSlicingReplicas,
    String launchTemplateNamePrefix,
    List<Node> nodes,
    Optional<Integer> hcaPorts,
    Optional<Integer> linkGbps,
    Optional<Double> minMultiNodeBusBandwidthGbps,
    boolean pinSocketIfname) {

  /**
   * The share of the bandwidth the fabric can carry that a healthy multi-node all-reduce keeps: the
   * same 80% gpugen applies to the single-node figure.
   */
  public static final double DEFAULT_MULTI_NODE_FRACTION = 0.8;

  /** InfiniBand or RoCE: NCCL's IB verbs transport, HCAs, GPUDirect RDMA through them. */
  public boolean verbs() {
    return pool.fabric() == Fabric.INFINIBAND || pool.fabric() == Fabric.ROCE;
  }

  /**
   * Whether play 05's multi-node log must show GPUDirect RDMA (NCCL's {@code via
   * NET/<net>/<n>/GDRDMA} connections): always over InfiniBand/RoCE HCAs, and on EFA where
   * aws-ofi-nccl marks the instance type {@code gdr_required} (its platform table,
   * src/platform-aws.cpp), which it enforces itself unless OFI_NCCL_DISABLE_GDR_REQUIRED_CHECK is
   * set.
   */
  public boolean gpuDirectRdmaRequired() {
    return verbs()
        || (pool.fabric() == Fabric.EFA
            && hardware.aws().map(AwsInstanceType::gdrRequired).orElse(false));
  }

  /**
   * What the pool's HCAs carry per node in GB/s: ports x link rate / 8. Across nodes a ring or tree
   * all-reduce moves each byte through the node's NICs, so nccl-tests' bus bandwidth (which is
   * "independent of the number of ranks" and reflects the slowest link: nccl-tests
   * doc/PERFORMANCE.md) cannot exceed it. Empty when ports or rate are unknown.
   */
  public Optional<Double> fabricGBps() {
    return hcaPorts.flatMap(n -> linkGbps.map(g -> n * g / 8.0));
  }

  /**
   * The single-node bus-bandwidth threshold play 05 holds the pool to: its validation value, else
   * the healthy share of the table's figure for its nodes ({@link
   * Hardware#defaultMinBusBandwidthGbps()}); empty: reported only.
   */
  public Optional<Double> minBusBandwidthGBps() {
    return pool.validation()
        .minBusBandwidthGBps()
        .or(
            () -> {
              java.util.OptionalInt d = hardware.defaultMinBusBandwidthGbps();
              return d.isPresent() ? Optional.of((double) d.getAsInt()) : Optional.empty();
            });
  }

  /**
   * One EC2 instance of a pool.
   *
   * @param key its stable key within the pool: {@code "0"}, {@code "1"}, ... in launch order, so
   *     removing one node later leaves the others' keys (and instances) alone
   * @param name its Name tag, {@code CLUSTER-POOL-KEY} (the inventory's first hostname choice)
   */
  public record Node(String key, String name) {}

  public PoolPlan {
    nodes = List.copyOf(nodes);
  }

  public String name() {
    return pool.name();
  }

  /**
   * The nodes play 05 measures the multi-node all-reduce across, with one mpirun: the pool's nodes
   * in its placement group ({@code POOL@GROUP}), or the pool's nodes where there is none. Never two
   * pools: a run with every host of the play would measure the slowest pool, with the first host's
   * GPU count, and write that into every host's report.
   */
  public String allReduceGroup() {
    return placementGroup.map(g -> pool.name() + "@" + g).orElse(pool.name());
  }

  /**
   * The Capacity Reservation the pool's nodes launch into (AWS): a Capacity Block's with market
   * capacity-block, or a targeted On-Demand Capacity Reservation's; empty for none.
   */
  public Optional<String> capacityReservationId() {
    return pool.capacityReservationId();
  }

  /**
   * Whether the nodes run in an EC2 Capacity Block for ML: they launch with market type
   * capacity-block into its reservation, and EC2 terminates them when the block ends.
   */
  public boolean capacityBlock() {
    return pool.capacityBlock();
  }

  /** The most nodes the pool runs: its autoscaling maximum (GKE), else its count. */
  public int maxNodes() {
    return pool.autoscaling().map(ClusterSpec.Autoscaling::max).orElse(pool.count());
  }

  /**
   * The nodes the pool always has: its autoscaling minimum (GKE), else its count. Play 05 on GKE
   * waits for these and runs its multi-node all-reduce across them.
   */
  public int minNodes() {
    return pool.autoscaling().map(ClusterSpec.Autoscaling::min).orElse(pool.count());
  }

  /**
   * The nodes play 05 on GKE runs one all-reduce across (one pod with all of a node's GPUs on
   * each): the nodes the pool always has, when there are two or more and the pool gives pods whole
   * GPUs; 0 for none (one node, or GPUs shared between pods, where a bandwidth means nothing).
   */
  public int multiNodeValidationNodes() {
    return minNodes() >= 2 && timeSlicingReplicas == 1 ? minNodes() : 0;
  }

  /**
   * Why play 05 on GKE runs no validation Job on this pool, empty where it does. A queued
   * provisioning pool (flex-start-queued) gets nodes only for a ProvisioningRequest, all at once; a
   * plain Job would stay Pending for the whole timeout
   * (https://cloud.google.com/kubernetes-engine/docs/how-to/provisioningrequest).
   */
  public Optional<String> gkeValidationSkipReason() {
    if (pool.market() == dev.gpugen.spec.Market.FLEX_START_QUEUED) {
      return Optional.of(
          "queued provisioning (market flex-start-queued) creates nodes only for a"
              + " ProvisioningRequest, so a plain validation Job would never be scheduled;"
              + " validate these nodes from a workload that requests them");
    }
    return Optional.empty();
  }

  /** nvidia.com/gpu each node advertises: its GPUs times the time-slicing replicas. */
  public int allocatableGpus() {
    return hardware.gpus() * timeSlicingReplicas;
  }

  /**
   * The network interfaces each node of the pool is launched with (AWS), one per network card: on
   * an EFA pool the primary ENA interface (with EFA where card 0 supports it) and an EFA-only
   * interface on every other card; otherwise the primary ENA interface alone. See {@link
   * AwsInstanceType#networkInterfaces(boolean)}.
   */
  public List<AwsInstanceType.NetworkInterface> networkInterfaces() {
    return hardware
        .aws()
        .map(a -> a.networkInterfaces(pool.fabric() == Fabric.EFA))
        .orElse(List.of(new AwsInstanceType.NetworkInterface(0, "interface")));
  }

  /** The EFA interfaces each node gets (vpc.amazonaws.com/efa it advertises); 0 on TCP pools. */
  public int efaInterfaces() {
    return (int) networkInterfaces().stream().filter(n -> !n.type().equals("interface")).count();
  }

  /** Pool names become Ansible group and Terraform identifiers, where '-' is not allowed. */
  static String identifier(String name) {
    return name.replace('-', '_');
  }

  /**
   * The nodes of an AWS pool: the {@code count} lowest keys ("0", "1", ...) that {@code retire}
   * does not list, so retiring a key removes that node alone and shrinking the count removes the
   * highest; Name tags {@code NAME[-ENV]-POOL-KEY} (the qualified name: dev and prod of one cluster
   * never share a host name).
   */
  static List<Node> nodes(String qualifiedName, ClusterSpec.Pool pool) {
    java.util.Set<Integer> retired = new java.util.HashSet<>(pool.retire());
    List<Node> out = new ArrayList<>();
    for (int i = 0; out.size() < pool.count(); i++) {
      if (!retired.contains(i)) {
        String key = Integer.toString(i);
        out.add(new Node(key, qualifiedName + "-" + pool.name() + "-" + key));
      }
    }
    return out;
  }
}
