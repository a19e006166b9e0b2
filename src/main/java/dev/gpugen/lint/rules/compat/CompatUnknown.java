package dev.gpugen.lint.rules.compat;

import dev.gpugen.compat.CudaRelease;
import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;
import java.util.List;

/** Says which checks were skipped because gpugen's table does not know a value. */
public final class CompatUnknown extends PoolRule {
  public CompatUnknown() {
    super(
        "compat-unknown",
        Severity.INFO,
        "gpugen's compatibility table does not know this value, so some checks were skipped",
        "The GPU-stack rules look values up in gpugen's compatibility table (compat.yaml, each row"
            + " with its source). When an EC2 instance type, a driver branch, a CUDA release newer"
            + " than the table, a GPU Operator chart version or a Container Toolkit version is not"
            + " in the table, gpugen cannot check it and says so here rather than guessing. Nothing"
            + " is wrong with the spec; if the value is right, the table needs a row (with its"
            + " source).");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.spec().cloud().provider().equals("aws") && p.hardware().aws().isEmpty()) {
      findings.report(
          p.path("instanceType"),
          p.pool().instanceType()
              + " is not in gpugen's table: GPU, driver, NVSwitch and EFA checks skipped for pool "
              + p.pool().name(),
          null);
    }
    Version driver = p.driver();
    if (p.table().driverBranch(driver).isEmpty()) {
      findings.report(
          findings.software(p.index(), "driver"),
          "driver branch " + driver.branch() + " is not in gpugen's table: lifecycle not checked",
          null);
    }
    List<CudaRelease> cuda = p.table().cudaReleases();
    Version oldest = cuda.get(0).version();
    Version newest = cuda.get(cuda.size() - 1).version();
    Version written = p.cuda();
    if (written.isBefore(oldest)) {
      findings.report(
          findings.software(p.index(), "cuda"),
          "CUDA "
              + written
              + " is older than gpugen's table (oldest "
              + oldest
              + "): its minimum driver is not checked",
          null);
    }
    if (written.major() > newest.major()
        || (written.major() == newest.major() && written.minor() > newest.minor())) {
      findings.report(
          findings.software(p.index(), "cuda"),
          "CUDA "
              + written
              + " is newer than gpugen's table (newest "
              + newest
              + "): its minimum driver is not checked",
          null);
    }
    Version operator = Version.parse(p.software().gpuOperator().version());
    if (p.table().gpuOperator(operator).isEmpty()) {
      findings.report(
          findings.software(p.index(), "gpuOperator", "version"),
          "GPU Operator " + operator + " is not in gpugen's table",
          null);
    }
    Version ctk = Version.parse(p.software().containerToolkit());
    if (p.table().containerToolkit(ctk).isEmpty()) {
      findings.report(
          findings.software(p.index(), "containerToolkit"),
          "NVIDIA Container Toolkit " + ctk + " is not in gpugen's table",
          null);
    }
  }
}
