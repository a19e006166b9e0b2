package dev.gpugen.plan;

import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Fabric;
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
 * @param tfPrefix the prefix of its Terraform variables and the label of its resources
 * @param placementGroup the placement group Terraform creates for it; empty with placement none
 * @param timeSlicingReplicas the device plugin's replicas per GPU, at least 1
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
   * What the pool's HCAs carry per node in GB/s: ports x link rate / 8. Across nodes a ring or tree
   * all-reduce moves each byte through the node's NICs, so nccl-tests' bus bandwidth (which is
   * "independent of the number of ranks" and reflects the slowest link: nccl-tests
   * doc/PERFORMANCE.md) cannot exceed it. Empty when ports or rate are unknown.
   */
  public Optional<Double> fabricGBps() {
    return hcaPorts.flatMap(n -> linkGbps.map(g -> n * g / 8.0));
  }

  public String name() {
    return pool.name();
  }

  /** nvidia.com/gpu each node advertises: its GPUs times the time-slicing replicas. */
  public int allocatableGpus() {
    return hardware.gpus() * timeSlicingReplicas;
  }

  /** Pool names become Ansible group and Terraform identifiers, where '-' is not allowed. */
  static String identifier(String name) {
    return name.replace('-', '_');
  }
}
