package dev.gpugen.lint.rules.efa;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.Severity;
import java.util.Map;

/** libfabric variables that current aws-ofi-nccl sets or no longer needs. */
public final class EfaObsoleteVariable extends Rule {
  private static final Map<String, String> WHY =
      Map.of(
          "FI_PROVIDER", "aws-ofi-nccl selects the efa provider itself (needed only up to 1.5.0)",
          "FI_EFA_USE_DEVICE_RDMA",
              "libfabric 1.18+ with aws-ofi-nccl 1.7+ enables device RDMA itself",
          "FI_EFA_FORK_SAFE", "not needed with current libfabric");

  public EfaObsoleteVariable() {
    super(
        "efa-obsolete-variable",
        Severity.INFO,
        "a libfabric variable that current EFA software no longer needs",
        "aws-ofi-nccl's EFA guide: FI_PROVIDER=efa (and NCCL_PROTO=simple) were needed only with"
            + " aws-ofi-nccl 1.5.0 and older; FI_EFA_USE_DEVICE_RDMA=1 only with aws-ofi-nccl 1.6 -"
            + " \"Do not set for libfabric>=1.18.0 and aws-ofi-nccl>=1.7.0\"; FI_EFA_FORK_SAFE is not"
            + " needed. gpugen installs a current EFA installer, so these are noise copied from old"
            + " guides; remove them."
            + " Source: https://github.com/aws/aws-ofi-nccl/blob/master/doc/efa-env-var.md");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    if (!Nccl.anyPool(spec, Fabric.EFA)) {
      return;
    }
    spec.nccl()
        .env()
        .forEach(
            (name, value) -> {
              String why = WHY.get(name);
              if (why != null) {
                findings.report(
                    Nccl.path(name), name + "=" + value + " is unnecessary: " + why, "remove it");
              }
            });
  }
}
