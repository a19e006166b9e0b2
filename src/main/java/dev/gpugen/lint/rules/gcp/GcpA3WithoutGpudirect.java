package dev.gpugen.lint.rules.gcp;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import java.util.Map;

/** A multi-node A3 High / A3 Mega pool on GKE without GPUDirect-TCPX(O): NCCL falls back to TCP. */
public final class GcpA3WithoutGpudirect extends PoolRule {
  // The GPUDirect stack each A3 accelerator needs for inter-node NCCL (GKE-TCPX).
  private static final Map<String, String> GPUDIRECT =
      Map.of("nvidia-h100-80gb", "GPUDirect-TCPX", "nvidia-h100-mega-80gb", "GPUDirect-TCPXO");

  public GcpA3WithoutGpudirect() {
    super(
        "gcp-a3-without-gpudirect",
        Severity.WARNING,
        "multi-node A3 High/Mega pool without GPUDirect-TCPX/TCPXO",
        "A3 High (a3-highgpu-8g) needs GPUDirect-TCPX and A3 Mega (a3-megagpu-8g) GPUDirect-TCPXO"
            + " (extra GPU NICs, the tcpx/tcpxo daemon and NCCL plugin, and the environment of"
            + " nccl-env-profile.sh) for inter-node NCCL; without them NCCL falls back to TCP on"
            + " eth0, about 4 GB/s instead of ~340 GB/s bus bandwidth. gpugen does not render those"
            + " components yet: install them (Google's nccl-tcpx/tcpxo installer DaemonSets) or keep"
            + " the job on one node."
            + " Source: https://cloud.google.com/kubernetes-engine/docs/how-to/gpu-bandwidth-gpudirect-tcpx");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.spec().cloud().provider() != Provider.GCP) {
      return;
    }
    int nodes = p.pool().autoscaling().map(a -> a.max()).orElse(p.pool().count());
    if (nodes < 2) {
      return;
    }
    p.hardware()
        .gcp()
        .filter(m -> GPUDIRECT.containsKey(m.accelerator()))
        .ifPresent(
            m ->
                findings.report(
                    p.path("instanceType"),
                    p.describe()
                        + " runs up to "
                        + nodes
                        + " nodes without "
                        + GPUDIRECT.get(m.accelerator())
                        + ": inter-node NCCL falls back to TCP (~4 GB/s)",
                    "install "
                        + GPUDIRECT.get(m.accelerator())
                        + " (GKE's installer DaemonSet and NCCL plugin) or keep jobs on one node"));
  }
}
