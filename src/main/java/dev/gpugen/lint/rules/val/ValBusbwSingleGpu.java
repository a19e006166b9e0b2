package dev.gpugen.lint.rules.val;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import java.util.OptionalInt;

/**
 * A bus-bandwidth threshold on single-GPU nodes: a one-rank all-reduce moves nothing between GPUs,
 * so nccl-tests reports a bus bandwidth of 0 and every healthy node fails play 05. On GKE a
 * time-sliced pool's validation Job gets one GPU replica, so the same holds there.
 */
public final class ValBusbwSingleGpu extends PoolRule {

  public ValBusbwSingleGpu() {
    super(
        "val-busbw-single-gpu",
        Severity.ERROR,
        "a bus-bandwidth threshold judges nodes with one GPU",
        "nccl-tests computes an all-reduce's bus bandwidth as algbw * 2(n-1)/n for n ranks; play 05"
            + " runs one rank per GPU of the node, so on a single-GPU node n = 1 and busbw is 0."
            + " On GKE a pool that time-slices its GPUs validates in a pod holding one replica (the"
            + " device plugin refuses more), so n = 1 there too."
            + " A minBusBandwidthGBps that applies to such a pool fails every healthy node. A pool"
            + " cannot unset the cluster-wide threshold, so set it in the validation: block of"
            + " each pool with several GPUs per node instead."
            + " Source: https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    OptionalInt gpus = p.hardware().gpuCount();
    boolean oneGpu = gpus.isPresent() && gpus.getAsInt() == 1;
    boolean gkeSliced =
        p.spec().cloud().provider() == Provider.GCP
            && p.pool().software().devicePlugin().timeSlicingReplicas() > 1;
    if (p.pool().validation().minBusBandwidthGBps().isEmpty() || !(oneGpu || gkeSliced)) {
      return;
    }
    findings.report(
        findings.validation(p.index(), "ncclAllReduce", "minBusBandwidthGBps"),
        "pool "
            + p.pool().name()
            + (oneGpu
                ? " has one GPU per node"
                : " time-slices its GPUs, so its validation pod holds one replica")
            + ": its single-node all-reduce reports 0 GB/s bus bandwidth, so this threshold fails"
            + " every node",
        "move minBusBandwidthGBps into the validation: block of the pools with several GPUs per"
            + " node");
  }
}
