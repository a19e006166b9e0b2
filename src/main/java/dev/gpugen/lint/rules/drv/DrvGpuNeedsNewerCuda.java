package dev.gpugen.lint.rules.drv;

import dev.gpugen.compat.GpuModel;
import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;

/** A toolkit older than the GPU's architecture cannot build code for it. */
public final class DrvGpuNeedsNewerCuda extends PoolRule {
  public DrvGpuNeedsNewerCuda() {
    super(
        "drv-gpu-needs-newer-cuda",
        Severity.ERROR,
        "the CUDA toolkit predates the pool's GPU architecture",
        "Each GPU is supported from one CUDA release on (Hopper 11.8, Ada 11.8, B200 12.8, B300"
            + " 12.9). An older toolkit has no code generation for the GPU's compute capability,"
            + " so nvcc cannot target it: play 05 cannot build gpu-burn or nccl-tests for it, and"
            + " kernels built with it fail to load. Raise software.cuda."
            + " Sources: https://docs.nvidia.com/datacenter/tesla/drivers/cuda-toolkit-driver-and-architecture-matrix.html,"
            + " https://docs.nvidia.com/cuda/archive/12.9.1/cuda-features-archive/index.html"
            + " (CUDA 12.9 adds sm_103, the B300's compute capability 10.3)");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.hardware().gpu().isEmpty()) {
      return;
    }
    GpuModel gpu = p.hardware().gpu().get();
    Version cuda = p.cuda();
    gpu.minCuda()
        .filter(cuda::isBefore)
        .ifPresent(
            min ->
                findings.report(
                    findings.software(p.index(), "cuda"),
                    p.describe() + " needs CUDA " + min + " or newer, not " + cuda,
                    "use CUDA " + min + " or newer"));
  }
}
