package dev.gpugen.lint.rules.drv;

import dev.gpugen.compat.CudaRelease;
import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;
import java.util.Optional;

/** Between the compatibility floor and the toolkit's own minimum, CUDA runs with fewer features. */
public final class DrvCudaNeedsNewerDriver extends PoolRule {
  public DrvCudaNeedsNewerDriver() {
    super(
        "drv-cuda-needs-newer-driver",
        Severity.WARNING,
        "the driver is older than the CUDA toolkit's minimum driver",
        "Each CUDA toolkit release names a minimum Linux driver (CUDA release notes, Table 3)."
            + " A driver at or above the CUDA major's compatibility floor but below that minimum"
            + " runs the toolkit only under minor-version compatibility, \"with limited feature-set\":"
            + " PTX JIT of newer PTX and features that need the newer driver fail at run time."
            + " software.cuda X.Y installs cuda-toolkit-X-Y, which is the newest X.Y update, so gpugen"
            + " judges the driver against that update's minimum (CUDA 12.8 installs 12.8 Update 1,"
            + " which needs 570.124.06). Raise software.driver to at least the minimum."
            + " Sources: https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html ,"
            + " https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    Version driver = p.driver();
    Version cuda = p.cuda();
    Optional<Version> floor = p.table().mvcFloor(cuda.major());
    if (floor.isPresent() && driver.isBefore(floor.get())) {
      return; // drv-cuda-below-compat-floor says it, more strongly
    }
    Optional<CudaRelease> newest = p.table().newestUpdateOf(cuda);
    if (newest.isEmpty() || !driver.isBefore(newest.get().minDriver())) {
      return;
    }
    CudaRelease r = newest.get();
    String installs =
        r.version().equals(cuda) ? "" : " (cuda-toolkit installs " + label(r.version()) + ")";
    findings.report(
        findings.software(p.index(), "driver"),
        "driver "
            + driver
            + " is older than "
            + r.minDriver()
            + ", the minimum of CUDA "
            + cuda
            + installs
            + "; it runs only with a limited feature set",
        "use driver " + r.minDriver() + " or newer");
  }

  /** "12.8 Update 1" for 12.8u1. */
  static String label(Version v) {
    return v.parts().size() > 2 && v.parts().get(2) > 0
        ? v.major() + "." + v.minor() + " Update " + v.parts().get(2)
        : v.major() + "." + v.minor();
  }
}
