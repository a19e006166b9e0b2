package dev.gpugen.lint.rules.nccl;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;

/** INFO and TRACE logging on every rank of every job floods logs. */
public final class NcclDebugVerbose extends Rule {
  public NcclDebugVerbose() {
    super(
        "nccl-debug-verbose",
        Severity.INFO,
        "NCCL_DEBUG is INFO or TRACE for every job",
        "NCCL_DEBUG=INFO prints topology, channel and connection details from every rank; TRACE"
            + " (debug builds) prints per-call traces. As a node default that is gigabytes of logs"
            + " on a large job. Keep WARN as the default and raise it for one job while"
            + " investigating."
            + " Source: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    Nccl.get(spec, "NCCL_DEBUG")
        .filter(v -> v.equalsIgnoreCase("INFO") || v.equalsIgnoreCase("TRACE"))
        .ifPresent(
            v ->
                findings.report(
                    Nccl.path("NCCL_DEBUG"),
                    "NCCL_DEBUG=" + v + " as a node default logs heavily from every rank",
                    "use WARN; raise it for one job when debugging"));
  }
}
