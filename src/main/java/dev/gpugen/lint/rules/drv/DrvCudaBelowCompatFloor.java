package dev.gpugen.lint.rules.drv;

import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;

/** A driver below the CUDA major's minor-version-compatibility floor cannot run the toolkit. */
public final class DrvCudaBelowCompatFloor extends PoolRule {
  public DrvCudaBelowCompatFloor() {
    super(
        "drv-cuda-below-compat-floor",
        Severity.ERROR,
        "the driver is too old to run any toolkit of the CUDA major",
        "From CUDA 11 on, a toolkit runs (with a limited feature set) on any driver at or above its"
            + " major's minor-version-compatibility floor: 450.80.02 for CUDA 11, 525.60.13 for"
            + " CUDA 12, 580.65.06 for CUDA 13. Below that floor CUDA applications fail to start"
            + " (cudaErrorInsufficientDriver). Raise software.driver, or choose an older"
            + " software.cuda."
            + " Source: https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    Version driver = p.driver();
    Version cuda = p.cuda();
    p.table()
        .mvcFloor(cuda.major())
        .filter(driver::isBefore)
        .ifPresent(
            floor ->
                findings.report(
                    findings.software(p.index(), "driver"),
                    "driver "
                        + driver
                        + " cannot run CUDA "
                        + cuda
                        + ": every CUDA "
                        + cuda.major()
                        + " toolkit needs at least "
                        + floor,
                    "use a driver of branch R"
                        + floor.major()
                        + " or newer, or a CUDA "
                        + (cuda.major() - 1)
                        + ".x toolkit"));
  }
}
