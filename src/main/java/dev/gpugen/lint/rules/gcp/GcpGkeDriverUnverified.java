package dev.gpugen.lint.rules.gcp;

import dev.gpugen.compat.CudaRelease;
import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.GkeDriverInstallation;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.spec.Severity;
import java.util.Optional;

/**
 * With GKE's DEFAULT driver, nothing checks that the driver is new enough for software.cuda: GKE
 * picks it per node image, and gpugen has no table of those drivers.
 */
public final class GcpGkeDriverUnverified extends Rule {
  public GcpGkeDriverUnverified() {
    super(
        "gcp-gke-driver-unverified",
        Severity.WARNING,
        "with gpuDriver gke, nothing checks GKE's driver against software.cuda",
        "With cloud.gke.gpuDriver: gke and gpuDriverVersion: default, gpugen renders"
            + " gpu_driver_installation_config DEFAULT and GKE installs the default driver of the"
            + " node image's COS release, which Google publishes only as a lookup per node"
            + " version, not as a table gpugen could check. Every CUDA toolkit needs a minimum"
            + " driver (CUDA 12.x at least 525.60.13, CUDA 13.x at least 580.65.06; each release"
            + " names its own, higher minimum), and DEFAULT may be an older branch: GKE's DEFAULT"
            + " installed 535.274.02, on which CUDA 13 programs fail. Fix: gpuDriverVersion:"
            + " latest (GKE's LATEST config, the newest driver of the node image), or gpuDriver:"
            + " operator, which installs software.driver and is checked by the drv- rules; or look"
            + " up the driver of the node version's image and keep software.cuda within it. With"
            + " LATEST the rule stays quiet: the newest driver GKE offers is the most any GKE"
            + " install can give, and gcp-driver-from-gke (info) still says it is unchecked."
            + " Sources: https://cloud.google.com/kubernetes-engine/docs/how-to/gpus#installing_drivers ,"
            + " https://cloud.google.com/kubernetes-engine/docs/how-to/gpus#map-gke-cos-gpu ,"
            + " https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/ ,"
            + " https://github.com/rapidsai/deployment/issues/656");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    if (plan.gkeDriverInstallation().filter(c -> c == GkeDriverInstallation.DEFAULT).isEmpty()) {
      return;
    }
    for (int i = 0; i < plan.pools().size(); i++) {
      PoolPlan pool = plan.pools().get(i);
      Version cuda = Version.parse(pool.pool().software().cuda());
      Optional<Version> floor = plan.compat().mvcFloor(cuda.major());
      Optional<Version> minimum =
          plan.compat().newestUpdateOf(cuda).map(CudaRelease::minDriver).or(() -> floor);
      if (minimum.isEmpty()) {
        continue; // drv-cuda-unknown-release names a CUDA the table does not know
      }
      // No pool name in the message: pools sharing software.cuda get one finding.
      findings.report(
          findings.software(i, "cuda"),
          "CUDA "
              + cuda
              + " needs driver "
              + minimum.get()
              + floor
                  .filter(f -> !f.equals(minimum.get()))
                  .map(f -> " (" + f + " to start at all)")
                  .orElse("")
              + ", but with gpuDriver gke GKE installs the DEFAULT driver of the node image,"
              + " which gpugen cannot check and which may be an older branch (GKE's DEFAULT"
              + " has installed 535.274.02, too old for CUDA 13:"
              + " https://github.com/rapidsai/deployment/issues/656)",
          "use cloud.gke.gpuDriverVersion: latest, or gpuDriver: operator to install"
              + " software.driver, or look up the driver of the node version's image"
              + " (https://cloud.google.com/kubernetes-engine/docs/how-to/gpus#map-gke-cos-gpu)"
              + " and keep software.cuda within it");
    }
  }
}
