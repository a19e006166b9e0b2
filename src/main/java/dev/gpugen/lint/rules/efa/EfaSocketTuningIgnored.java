package dev.gpugen.lint.rules.efa;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.Severity;
import java.util.List;

/** Socket-transport and channel tuning does not apply to EFA. */
public final class EfaSocketTuningIgnored extends Rule {
  private static final List<String> NAMES =
      List.of(
          "NCCL_SOCKET_NTHREADS", "NCCL_NSOCKS_PERTHREAD", "NCCL_MIN_NCHANNELS", "NCCL_BUFFSIZE");

  public EfaSocketTuningIgnored() {
    super(
        "efa-socket-tuning-ignored",
        Severity.INFO,
        "NCCL socket or channel tuning set on an EFA fabric",
        "On EFA, NCCL talks to the network through aws-ofi-nccl, not its socket transport:"
            + " NCCL_SOCKET_NTHREADS and NCCL_NSOCKS_PERTHREAD are \"not applicable for EFA\", and"
            + " NCCL_MIN_NCHANNELS and NCCL_BUFFSIZE should be left at their defaults, which the"
            + " plugin sets per platform (e.g. an 8 MiB NCCL_BUFFSIZE on p4d, p5 and p6). Remove"
            + " them."
            + " Source: https://github.com/aws/aws-ofi-nccl/blob/master/doc/efa-env-var.md");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    if (!Nccl.anyPool(spec, Fabric.EFA)) {
      return;
    }
    for (String name : NAMES) {
      Nccl.get(spec, name)
          .ifPresent(
              v ->
                  findings.report(
                      Nccl.path(name),
                      name
                          + "="
                          + v
                          + (name.startsWith("NCCL_SOCKET") || name.startsWith("NCCL_NSOCKS")
                              ? " does not apply to EFA (it tunes NCCL's TCP transport)"
                              : " overrides the value aws-ofi-nccl sets for the platform"),
                      "remove it on EFA"));
    }
  }
}
