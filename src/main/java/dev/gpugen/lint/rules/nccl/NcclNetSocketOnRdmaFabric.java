package dev.gpugen.lint.rules.nccl;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.Severity;

/** NCCL_NET=Socket on an RDMA fabric forces inter-node traffic onto TCP. */
public final class NcclNetSocketOnRdmaFabric extends Rule {
  public NcclNetSocketOnRdmaFabric() {
    super(
        "nccl-net-socket-on-rdma-fabric",
        Severity.ERROR,
        "NCCL_NET=Socket on an RDMA fabric",
        "NCCL_NET selects the network NCCL uses between nodes. Socket is its TCP transport; on an"
            + " EFA, InfiniBand or RoCE fabric it leaves the RDMA hardware idle, with the same"
            + " effect as NCCL_IB_DISABLE=1: inter-node collectives at TCP speed. Leave NCCL_NET"
            + " unset (NCCL picks the fastest network) or name the fabric's network (IB, or"
            + " Libfabric for aws-ofi-nccl on EFA). Complements nccl-ib-disabled-on-rdma-fabric."
            + " Source: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    // The cluster's NCCL settings reach every pool: judge them against the first RDMA pool.
    Fabric fabric =
        spec.pools().stream()
            .map(ClusterSpec.Pool::fabric)
            .filter(f -> f != Fabric.TCP)
            .findFirst()
            .orElse(Fabric.TCP);
    if (fabric == Fabric.TCP) {
      return;
    }
    Nccl.get(spec, "NCCL_NET")
        .filter(v -> v.equalsIgnoreCase("socket"))
        .ifPresent(
            v ->
                findings.report(
                    Nccl.path("NCCL_NET"),
                    "NCCL_NET="
                        + v
                        + " sends inter-node traffic over TCP on the "
                        + fabric
                        + " fabric",
                    "remove NCCL_NET" + (fabric == Fabric.EFA ? " (or use Libfabric)" : "")));
  }
}
