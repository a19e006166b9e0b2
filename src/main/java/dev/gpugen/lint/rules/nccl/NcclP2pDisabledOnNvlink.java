package dev.gpugen.lint.rules.nccl;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import java.util.Optional;

/** Turning off peer-to-peer on an NVSwitch node cuts NVLink out of every collective. */
public final class NcclP2pDisabledOnNvlink extends Rule {
  public NcclP2pDisabledOnNvlink() {
    super(
        "nccl-p2p-disabled-on-nvlink",
        Severity.ERROR,
        "NCCL peer-to-peer is turned off on NVSwitch nodes",
        "NCCL_P2P_DISABLE=1 (or NCCL_P2P_LEVEL=LOC) stops NCCL from using NVLink and PCI"
            + " peer-to-peer between the GPUs of a node; traffic goes through host memory instead."
            + " On an NVSwitch system (p4d, p5, p5e, p5en, p6-b200) that throws away the NVLink"
            + " fabric, the fastest link the node has. It is a debugging variable; remove it."
            + " Source: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    Optional<ClusterSpec.Pool> nvswitch =
        plan.pools().stream().filter(p -> p.hardware().nvswitch()).map(PoolPlan::pool).findFirst();
    if (nvswitch.isEmpty()) {
      return;
    }
    String where = " on pool " + nvswitch.get().name() + " (" + nvswitch.get().instanceType() + ")";
    Nccl.get(spec, "NCCL_P2P_DISABLE")
        .filter(v -> !v.equals("0"))
        .ifPresent(
            v ->
                findings.report(
                    Nccl.path("NCCL_P2P_DISABLE"),
                    "NCCL_P2P_DISABLE=" + v + " cuts NVLink out of NCCL" + where,
                    "remove NCCL_P2P_DISABLE"));
    Nccl.get(spec, "NCCL_P2P_LEVEL")
        .filter(v -> v.equalsIgnoreCase("LOC") || v.equals("0"))
        .ifPresent(
            v ->
                findings.report(
                    Nccl.path("NCCL_P2P_LEVEL"),
                    "NCCL_P2P_LEVEL="
                        + v
                        + " never uses peer-to-peer, so NVLink goes unused"
                        + where,
                    "remove NCCL_P2P_LEVEL"));
  }
}
