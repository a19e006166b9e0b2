package dev.gpugen.render;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.spec.ClusterSpec;

/**
 * A pool's inter-node fabric and host settings as the Ansible templates name them: the bootstrap
 * interface, the HCAs the preflight expects, GPUDirect RDMA in the multi-node log, the multi-node
 * threshold, DOCA-OFED and host tuning. A projection of {@link PoolPlan}; empty strings stand for
 * "not set" (the roles read them as such).
 *
 * @param verbs InfiniBand or RoCE
 * @param linkLayer what /sys/class/infiniband/DEV/ports/N/link_layer says on the fabric: InfiniBand
 *     or Ethernet (RoCE); empty elsewhere
 * @param bootstrapInterface the spec's interface; empty: found on each host
 * @param pinSocketIfname nccl.conf pins NCCL_SOCKET_IFNAME to the bootstrap interface
 * @param hcaPorts the Active HCA ports each host must have; empty when unknown
 * @param linkGbps the rate each must run at; empty when unknown
 * @param minMultiNodeBusBandwidthGBps the multi-node threshold; empty: reported only
 * @param gdrRequired the multi-node log must show GPUDirect RDMA ({@link
 *     PoolPlan#gpuDirectRdmaRequired()})
 * @param preflight play 00 checks HCAs, ACS and the IOMMU before installing anything
 * @param docaOfed the DOCA-OFED release to install; empty: none
 * @param cpuGovernor the governor set at boot; empty: left alone
 * @param hugepages 2 MiB huge pages reserved at boot; empty: left alone
 * @param gpuClocks nvidia-smi --applications-clocks value MEM,GRAPHICS; empty: left alone
 */
public record FabricVars(
    boolean verbs,
    String linkLayer,
    String bootstrapInterface,
    boolean pinSocketIfname,
    String hcaPorts,
    String linkGbps,
    String minMultiNodeBusBandwidthGBps,
    boolean gdrRequired,
    boolean preflight,
    String docaOfed,
    String cpuGovernor,
    String hugepages,
    String gpuClocks) {

  static FabricVars of(ClusterPlan plan, PoolPlan pp) {
    ClusterSpec.Pool p = pp.pool();
    boolean verbs = pp.verbs();
    String linkLayer =
        switch (p.fabric()) {
          case INFINIBAND -> "InfiniBand";
          case ROCE -> "Ethernet";
          default -> "";
        };
    ClusterSpec.Tuning t = p.tuning();
    return new FabricVars(
        verbs,
        linkLayer,
        p.bootstrapInterface().orElse(""),
        pp.pinSocketIfname(),
        pp.hcaPorts().map(String::valueOf).orElse(""),
        pp.linkGbps().map(String::valueOf).orElse(""),
        pp.minMultiNodeBusBandwidthGbps().map(AnsibleVar::number).orElse(""),
        pp.gpuDirectRdmaRequired(),
        verbs && p.rdma().preflight(),
        verbs ? p.software().docaOfed().orElse("") : "",
        t.cpuGovernor().orElse(""),
        t.hugepages().map(String::valueOf).orElse(""),
        t.gpuClocks().map(c -> c.memoryMHz() + "," + c.graphicsMHz()).orElse(""));
  }
}
