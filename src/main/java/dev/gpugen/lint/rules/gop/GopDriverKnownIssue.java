package dev.gpugen.lint.rules.gop;

import dev.gpugen.compat.DriverKnownIssue;
import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;

/** Driver releases the GPU Operator release notes list with a known issue for this setup. */
public final class GopDriverKnownIssue extends PoolRule {
  public GopDriverKnownIssue() {
    super(
        "gop-driver-known-issue",
        Severity.WARNING,
        "the driver has a known issue with the GPU Operator features the pool uses",
        "The GPU Operator release notes list driver releases with known defects. Drivers"
            + " 570.124.06, 570.133.20, 570.148.08 and 570.158.01 leave pods Pending on nodes that mix"
            + " MIG slices and full GPUs; 570.172.08 fixes it. gpugen reports such a driver when the"
            + " pool enables the MIG manager (software.gpuOperator.migManager)."
            + " Source: https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/release-notes.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    Version driver = p.driver();
    for (DriverKnownIssue issue : p.table().driverKnownIssues()) {
      boolean applies = !issue.when().equals("mig") || p.software().gpuOperator().migManager();
      if (applies && issue.affects(driver)) {
        findings.report(
            findings.software(p.index(), "driver"),
            "driver "
                + driver
                + " has a known issue"
                + (issue.when().equals("mig") ? " with MIG" : "")
                + ": "
                + issue.description(),
            "use driver " + issue.fixedIn() + " or newer");
      }
    }
  }
}
