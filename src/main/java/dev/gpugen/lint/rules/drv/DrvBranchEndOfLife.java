package dev.gpugen.lint.rules.drv;

import dev.gpugen.compat.DriverBranch;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;
import java.time.YearMonth;

/** An end-of-life driver branch gets no security fixes. */
public final class DrvBranchEndOfLife extends PoolRule {
  public DrvBranchEndOfLife() {
    super(
        "drv-branch-end-of-life",
        Severity.WARNING,
        "the driver branch has reached end of life",
        "NVIDIA lists R525, R550, R560, R565 and R575 among the branches that have reached end of"
            + " life, and gives an end month for the others (R535 June 2026, R570 February 2026,"
            + " R580 June 2028). An ended branch gets no bug or security fixes. gpugen judges the"
            + " dates as of the month its table was reviewed (lifecycle.as_of in compat.yaml), so a"
            + " spec lints the same on every machine and day. Move to a supported production or"
            + " long-term branch (R580 LTSB, R595 PB)."
            + " Source: https://docs.nvidia.com/datacenter/tesla/drivers/supported-drivers-and-cuda-toolkit-versions.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    YearMonth asOf = p.table().lifecycleAsOf();
    p.table()
        .driverBranch(p.driver())
        .filter(b -> b.isEndOfLife(asOf))
        .ifPresent(
            b ->
                findings.report(
                    findings.software(p.index(), "driver"),
                    "driver branch "
                        + b.name()
                        + " reached end of life"
                        + b.endOfLife().map(m -> " in " + m).orElse("")
                        + (b.status() == DriverBranch.Status.END_OF_LIFE
                            ? ""
                            : " (as of " + asOf + ")")
                        + ": no more security fixes",
                    "move to R580 (long-term support until 2028-06) or another supported branch"));
  }
}
