package dev.gpugen.lint.rules.nccl;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.Severity;
import java.util.List;

/** NCCL_ALGO and NCCL_PROTO are debugging switches, not tuning. */
public final class NcclAlgoProtoForced extends Rule {
  public NcclAlgoProtoForced() {
    super(
        "nccl-algo-proto-forced",
        Severity.WARNING,
        "NCCL_ALGO or NCCL_PROTO is forced for every job",
        "NCCL's documentation files NCCL_ALGO and NCCL_PROTO under debugging variables that"
            + " \"should not be used in production nor retained in scripts\". Forcing Ring disables"
            + " NVLS, NVLSTree, CollNet and PAT (on 8x H100 all-reduce drops from about 480 to 370"
            + " GB/s busbw); \"enabling LL128 on platforms that don't support it can lead to data"
            + " corruption\"; and aws-ofi-nccl's tuner refuses to load when either is set. Leave"
            + " both unset. (GCP's TCPXO nccl-env-profile.sh sets them on purpose; that profile is"
            + " sourced on the node, not written in the spec.)"
            + " Sources: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html ,"
            + " https://github.com/NVIDIA/nccl-tests/issues/212 , https://github.com/aws/aws-ofi-nccl");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    for (String name : List.of("NCCL_ALGO", "NCCL_PROTO")) {
      Nccl.get(spec, name)
          .ifPresent(
              v ->
                  findings.report(
                      Nccl.path(name),
                      name
                          + "="
                          + v
                          + " overrides NCCL's per-topology choice for every job"
                          + (Nccl.anyPool(spec, Fabric.EFA)
                              ? " and disables the aws-ofi-nccl tuner"
                              : ""),
                      "remove " + name + "; set it only while debugging one job"));
    }
  }
}
