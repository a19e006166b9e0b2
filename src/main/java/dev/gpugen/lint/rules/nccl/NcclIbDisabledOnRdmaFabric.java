package dev.gpugen.lint.rules.nccl;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;

/** NCCL_IB_DISABLE=1 turns off InfiniBand and RoCE alike. */
public final class NcclIbDisabledOnRdmaFabric extends Rule {
  public NcclIbDisabledOnRdmaFabric() {
    super(
        "nccl-ib-disabled-on-rdma-fabric",
        Severity.ERROR,
        "NCCL_IB_DISABLE=1 on an InfiniBand or RoCE fabric",
        "NCCL_IB_DISABLE=1 \"prevents the IB/RoCE transport from being used by NCCL. Instead, NCCL"
            + " will fall back to using IP sockets.\" NCCL drives RoCE through the same verbs"
            + " transport as InfiniBand, so setting it \"because we use RoCE, not InfiniBand\" (as"
            + " one of gpugen's seed articles does) moves all inter-node traffic to TCP at a"
            + " fraction of the fabric's bandwidth. Remove it on network.fabric infiniband or"
            + " roce."
            + " Source: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    Nccl.get(spec, "NCCL_IB_DISABLE")
        .filter(v -> !v.equals("0") && Nccl.verbsFabric(spec))
        .ifPresent(
            v ->
                findings.report(
                    Nccl.path("NCCL_IB_DISABLE"),
                    "NCCL_IB_DISABLE="
                        + v
                        + " disables the "
                        + Nccl.verbsPoolFabric(spec).orElseThrow()
                        + " fabric: NCCL falls back to TCP sockets",
                    "remove NCCL_IB_DISABLE; it disables RoCE as well as InfiniBand"));
  }
}
