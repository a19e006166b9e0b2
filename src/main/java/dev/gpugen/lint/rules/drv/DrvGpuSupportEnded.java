package dev.gpugen.lint.rules.drv;

import dev.gpugen.compat.GpuModel;
import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;

/** Volta and Pascal end with driver branch R580 and CUDA 12. */
public final class DrvGpuSupportEnded extends PoolRule {
  public DrvGpuSupportEnded() {
    super(
        "drv-gpu-support-ended",
        Severity.ERROR,
        "the driver or CUDA is newer than the last release that supports the pool's GPU",
        "NVIDIA ended support for Maxwell, Pascal and Volta (V100, P100, P4) with driver branch"
            + " R580 and CUDA 12.x: later branches do not list the GPUs and CUDA 13 cannot target"
            + " them. Keep such pools on R580 and CUDA 12 (a pool may override software: for"
            + " itself)."
            + " Source: https://docs.nvidia.com/datacenter/tesla/drivers/cuda-toolkit-driver-and-architecture-matrix.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.hardware().gpu().isEmpty()) {
      return;
    }
    GpuModel gpu = p.hardware().gpu().get();
    Version driver = p.driver();
    Version cuda = p.cuda();
    gpu.maxDriverBranch()
        .ifPresent(
            max -> {
              if (driver.major() > max) {
                findings.report(
                    findings.software(p.index(), "driver"),
                    p.describe()
                        + ": driver branch R"
                        + max
                        + " is the last for "
                        + gpu.name()
                        + ", not "
                        + driver.branch(),
                    "use an R" + max + " driver for this pool");
              }
            });
    gpu.maxCudaMajor()
        .ifPresent(
            max -> {
              if (cuda.major() > max) {
                findings.report(
                    findings.software(p.index(), "cuda"),
                    p.describe()
                        + ": CUDA "
                        + max
                        + ".x is the last for "
                        + gpu.name()
                        + ", not "
                        + cuda,
                    "use a CUDA " + max + ".x toolkit for this pool");
              }
            });
  }
}
