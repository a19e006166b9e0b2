package dev.gpugen.lint.rules.drv;

import dev.gpugen.compat.CudaRelease;
import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;
import java.util.List;
import java.util.stream.Collectors;

/** A CUDA version inside the table's range that was never released (there is no CUDA 12.7). */
public final class DrvCudaUnknownRelease extends PoolRule {
  public DrvCudaUnknownRelease() {
    super(
        "drv-cuda-unknown-release",
        Severity.ERROR,
        "software.cuda names a CUDA release that does not exist",
        "software.cuda must be a released toolkit: gpugen installs cuda-toolkit-X-Y, and apt fails"
            + " on a version NVIDIA never shipped (there is no CUDA 12.7: 12.6 was followed by"
            + " 12.8). A version newer than every release gpugen knows is not an error; it is"
            + " reported by compat-unknown instead."
            + " Source: https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    Version cuda = p.cuda();
    List<CudaRelease> all = p.table().cudaReleases();
    Version oldest = all.get(0).version();
    Version newest = all.get(all.size() - 1).version();
    if (cuda.isBefore(oldest)
        || cuda.isAtLeast(newest)
        || p.table().cudaRelease(cuda).isPresent()) {
      return;
    }
    String sameMajor =
        all.stream()
            .map(CudaRelease::version)
            .filter(v -> v.major() == cuda.major() && v.parts().size() == 2)
            .map(Version::toString)
            .collect(Collectors.joining(", "));
    findings.report(
        findings.software(p.index(), "cuda"),
        "CUDA " + cuda + " was never released",
        "CUDA " + cuda.major() + " releases: " + sameMajor);
  }
}
