package dev.gpugen.lint.rules.fsx;

import dev.gpugen.compat.LustreDeployment;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** FSx for Lustre capacity comes in fixed steps. */
public final class FsxCapacityInvalid extends Rule {
  public FsxCapacityInvalid() {
    super(
        "fsx-capacity-invalid",
        Severity.ERROR,
        "storage.lustre.capacityGiB is not a size FSx for Lustre offers",
        "FSx for Lustre SSD capacity is 1200 GiB, 2400 GiB, or a multiple of 2400 GiB"
            + " (SCRATCH_2, PERSISTENT_1, PERSISTENT_2) or of 3600 GiB (SCRATCH_1)."
            + " CreateFileSystem rejects other sizes."
            + " Source: https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystem.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    if (spec.storage().lustre().isEmpty()) {
      return;
    }
    ClusterSpec.Lustre l = spec.storage().lustre().get();
    plan.compat()
        .lustreDeployment(l.deploymentType())
        .filter(d -> !d.acceptsCapacity(l.capacityGiB()))
        .ifPresent(
            d ->
                findings.report(
                    SpecPath.of("storage", "lustre", "capacityGiB"),
                    l.capacityGiB() + " GiB is not a " + l.deploymentType() + " capacity",
                    "use 1200, 2400 or a multiple of "
                        + d.capacityStepGib()
                        + ", e.g. "
                        + nearest(l.capacityGiB(), d)));
  }

  private static int nearest(int gib, LustreDeployment d) {
    if (gib <= 1200) {
      return 1200;
    }
    if (gib <= 2400) {
      return 2400;
    }
    int step = d.capacityStepGib();
    return ((gib + step - 1) / step) * step;
  }
}
