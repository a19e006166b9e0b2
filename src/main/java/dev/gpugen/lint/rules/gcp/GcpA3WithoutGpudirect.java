package dev.gpugen.lint.rules.gcp;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import java.util.Map;

/**
 * A multi-node A3 High / A3 Mega pool on GKE: gpugen does not render GPUDirect-TCPX(O), without
 * which NCCL between its nodes falls back to TCP, so it refuses the pool.
 */
public final class GcpA3WithoutGpudirect extends PoolRule {
  // The GPUDirect stack each A3 accelerator needs for inter-node NCCL (GKE-TCPX).
  private static final Map<String, String> GPUDIRECT =
      Map.of("nvidia-h100-80gb", "GPUDirect-TCPX", "nvidia-h100-mega-80gb", "GPUDirect-TCPXO");

  public GcpA3WithoutGpudirect() {
    super(
        "gcp-a3-without-gpudirect",
        Severity.ERROR,
        "multi-node A3 High/Mega pool, which needs GPUDirect-TCPX/TCPXO gpugen does not render",
        "A3 High (a3-highgpu-8g) reaches its bandwidth between nodes through GPUDirect-TCPX and"
            + " A3 Mega (a3-megagpu-8g) through GPUDirect-TCPXO: four (High) or eight (Mega) extra"
            + " GPU NICs, each in a VPC and subnet of its own attached with GKE multi-networking"
            + " (Network and GKENetworkParamSet objects), the NCCL plugin installer DaemonSet, the"
            + " NRI device injector (TCPXO), and per workload pod the tcpx/tcpxo daemon as a"
            + " sidecar, the NCCL plugin's environment (nccl-env-profile.sh) and the interface"
            + " annotations. Without them NCCL between nodes falls back to TCP on eth0: about 4"
            + " GB/s instead of about 340 GB/s of all-reduce bus bandwidth. gpugen does not"
            + " render them, and a multi-node pool that silently runs at a hundredth of its"
            + " bandwidth is worse than none, so it refuses an A3 High or Mega pool that can have"
            + " more than one node. Keep the pool at one node (count: 1, or autoscaling max: 1),"
            + " or build the pool with Google's guide or Cluster Toolkit's A3 blueprints. Sources:"
            + " https://cloud.google.com/kubernetes-engine/docs/how-to/gpu-bandwidth-gpudirect-tcpx ,"
            + " https://github.com/GoogleCloudPlatform/container-engine-accelerators/tree/master/gpudirect-tcpxo");
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
                        + " can run "
                        + nodes
                        + " nodes, and gpugen does not render "
                        + GPUDIRECT.get(m.accelerator())
                        + ": NCCL between them would fall back to TCP (about 4 GB/s)",
                    "keep the pool at one node (count: 1, or autoscaling max: 1), or set it up"
                        + " with Google's "
                        + GPUDIRECT.get(m.accelerator())
                        + " guide outside gpugen"));
  }
}
