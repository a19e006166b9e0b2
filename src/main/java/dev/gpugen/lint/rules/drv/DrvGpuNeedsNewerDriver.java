package dev.gpugen.lint.rules.drv;

import dev.gpugen.compat.GpuModel;
import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;

/** Each GPU is supported from a driver release on; older drivers do not see it. */
public final class DrvGpuNeedsNewerDriver extends PoolRule {
  public DrvGpuNeedsNewerDriver() {
    super(
        "drv-gpu-needs-newer-driver",
        Severity.ERROR,
        "the driver predates the pool's GPU",
        "A driver supports the GPUs whose PCI ids it lists; an older driver does not bind to a"
            + " newer GPU and nvidia-smi reports no devices. gpugen's floors: the first CUDA"
            + " toolkit for the architecture and the first driver whose open-module table lists"
            + " the GPU, whichever is later (H100 525.85.12, H200 550.90.07 - so no R535 and no"
            + " early R550 on p5e/p5en -, L40S 535.104.05, B200 570.86.15). Raise"
            + " software.driver for the pool (a pool may override it under its own software:)."
            + " Sources: https://github.com/NVIDIA/open-gpu-kernel-modules ,"
            + " https://docs.nvidia.com/datacenter/tesla/drivers/cuda-toolkit-driver-and-architecture-matrix.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.hardware().gpu().isEmpty()) {
      return;
    }
    GpuModel gpu = p.hardware().gpu().get();
    Version driver = p.driver();
    gpu.minDriver()
        .filter(driver::isBefore)
        .ifPresent(
            min ->
                findings.report(
                    findings.software(p.index(), "driver"),
                    p.describe() + " needs driver " + min + " or newer, not " + driver,
                    "use R"
                        + Math.max(min.major(), 580)
                        + " (long-term support) or at least "
                        + min));
  }
}
