package dev.gpugen.lint.rules.drv;

import dev.gpugen.compat.GpuModel;
import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;

/** The GPU Operator supports some GPUs only from a later driver than the GPU's own floor. */
public final class DrvOperatorGpuDriverFloor extends PoolRule {
  public DrvOperatorGpuDriverFloor() {
    super(
        "drv-operator-gpu-driver-floor",
        Severity.ERROR,
        "the GPU Operator does not support the pool's GPU with this driver",
        "The GPU Operator's platform support page sets its own driver floor for some GPUs: \"HGX"
            + " B200 requires a driver container version of 570.133.20 or later\", above the"
            + " 570.86.15 where the driver first lists B200. gpugen deploys the operator on every"
            + " cluster, so the pool's driver must meet the operator's floor too."
            + " Source: https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/platform-support.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.hardware().gpu().isEmpty()) {
      return;
    }
    GpuModel gpu = p.hardware().gpu().get();
    Version driver = p.driver();
    if (gpu.minDriver().filter(driver::isBefore).isPresent()) {
      return; // drv-gpu-needs-newer-driver already says the driver is too old
    }
    gpu.gpuOperatorMinDriverContainer()
        .filter(driver::isBefore)
        .ifPresent(
            min ->
                findings.report(
                    findings.software(p.index(), "driver"),
                    p.describe()
                        + ": the GPU Operator supports "
                        + gpu.name()
                        + " from driver "
                        + min
                        + ", not "
                        + driver,
                    "use driver " + min + " or newer"));
  }
}
