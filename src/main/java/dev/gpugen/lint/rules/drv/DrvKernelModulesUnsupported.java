package dev.gpugen.lint.rules.drv;

import dev.gpugen.compat.GpuModel;
import dev.gpugen.compat.KernelModule;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.KernelModules;
import dev.gpugen.spec.Severity;

/** Blackwell and Grace need the open kernel modules; Volta and older need the proprietary ones. */
public final class DrvKernelModulesUnsupported extends PoolRule {
  public DrvKernelModulesUnsupported() {
    super(
        "drv-kernel-modules-unsupported",
        Severity.ERROR,
        "software.kernelModules names a flavour the pool's GPU cannot run",
        "NVIDIA ships two kernel-module flavours. For Grace Hopper and Blackwell (B200, B300, GB200)"
            + " \"you must use the open-source GPU kernel modules. The proprietary drivers are"
            + " unsupported\"; the open modules need GSP, so Maxwell, Pascal and Volta (V100) run"
            + " only the proprietary ones. Leave software.kernelModules at auto (gpugen picks per"
            + " GPU) or set the flavour the GPU supports."
            + " Sources: https://developer.nvidia.com/blog/nvidia-transitions-fully-towards-open-source-gpu-kernel-modules/ ,"
            + " https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/kernel-modules.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    KernelModules chosen = p.software().kernelModules();
    if (chosen == KernelModules.AUTO || p.hardware().gpu().isEmpty()) {
      return;
    }
    GpuModel gpu = p.hardware().gpu().get();
    KernelModule flavour =
        chosen == KernelModules.OPEN ? KernelModule.OPEN : KernelModule.PROPRIETARY;
    if (gpu.kernelModules().allows(flavour)) {
      return;
    }
    String needed = flavour == KernelModule.OPEN ? "proprietary" : "open";
    findings.report(
        findings.software(p.index(), "kernelModules"),
        p.describe()
            + " cannot run the "
            + chosen
            + " kernel modules; "
            + gpu.name()
            + " needs the "
            + needed
            + " ones",
        "use kernelModules: auto (or " + needed + ")");
  }
}
