package dev.gpugen.lint.rules.drv;

import dev.gpugen.compat.DriverBranch;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;

/** New-feature branches are short-lived and meant for early adopters, not production nodes. */
public final class DrvNewFeatureBranch extends PoolRule {
  public DrvNewFeatureBranch() {
    super(
        "drv-new-feature-branch",
        Severity.WARNING,
        "the driver comes from a short-lived new-feature branch",
        "NVIDIA's data-center drivers come in production branches (fixes for about a year),"
            + " long-term support branches (about three years) and new-feature branches: released"
            + " roughly quarterly for early adopters, short-lived, without a support period (R545,"
            + " R555, R560, R565, R575, R590, R610). Run GPU fleets on a production or long-term"
            + " branch."
            + " Source: https://docs.nvidia.com/datacenter/tesla/drivers/");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    p.table()
        .driverBranch(p.driver())
        .filter(b -> b.type() == DriverBranch.Type.NEW_FEATURE)
        .ifPresent(
            b ->
                findings.report(
                    findings.software(p.index(), "driver"),
                    "driver branch "
                        + b.name()
                        + " is a new-feature branch, not meant for"
                        + " production nodes",
                    "use a production or long-term branch such as R580"));
  }
}
