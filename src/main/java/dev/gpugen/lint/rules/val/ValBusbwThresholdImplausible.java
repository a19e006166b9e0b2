package dev.gpugen.lint.rules.val;

import dev.gpugen.compat.AllReduceBandwidth;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.Optional;

/**
 * A bandwidth threshold that passes a degraded node, or that no node can reach; judged per pool on
 * the pool's effective threshold (its own {@code validation:} or the cluster's).
 */
public final class ValBusbwThresholdImplausible extends PoolRule {
  static final double LAX = AllReduceBandwidth.HEALTHY_FRACTION;

  public ValBusbwThresholdImplausible() {
    super(
        "val-busbw-threshold-implausible",
        Severity.WARNING,
        "minBusBandwidthGBps is far from what the pool's GPUs reach",
        "Single-node all_reduce_perf on 8-GPU NVSwitch systems reaches, at 1-8 GB messages, about"
            + " 480 GB/s busbw on H100 with NVLS and about 370 GB/s without it (Ring, or NVLS"
            + " unavailable); about 230 GB/s on A100. A threshold below 80% of the figure without"
            + " NVLS passes a node that has lost a fifth of its bandwidth; a threshold above the"
            + " best figure fails every healthy node. Each pool is judged on its own threshold"
            + " (pools[].validation overrides the cluster-wide validation). These figures are heuristics from NCCL"
            + " maintainers' answers; use them to sanity-check the spec, not as a contract."
            + " Sources: https://github.com/NVIDIA/nccl-tests/issues/212 ,"
            + " https://github.com/NVIDIA/nccl-tests/issues/149 , https://github.com/NVIDIA/nccl/issues/527");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    Optional<Double> threshold = p.pool().validation().minBusBandwidthGBps();
    if (threshold.isEmpty()) {
      return;
    }
    double t = threshold.get();
    SpecPath at = findings.validation(p.index(), "ncclAllReduce", "minBusBandwidthGBps");
    Optional<AllReduceBandwidth> expected = p.hardware().allReduce();
    if (expected.isEmpty()) {
      return;
    }
    AllReduceBandwidth b = expected.get();
    String node = b.gpus() + "x " + b.gpu() + " nodes (pool " + p.pool().name() + ")";
    if (t < LAX * b.ringGbps()) {
      findings.report(
          at,
          "minBusBandwidthGBps "
              + gbps(t)
              + " would pass "
              + node
              + " running below 80% of their ~"
              + b.ringGbps()
              + " GB/s",
          "use at least " + b.minHealthyGbps());
    } else if (t > b.peakGbps()) {
      findings.report(
          at,
          "minBusBandwidthGBps "
              + gbps(t)
              + " is above the ~"
              + b.peakGbps()
              + " GB/s that "
              + node
              + " reach; every node would fail",
          "use at most " + b.peakGbps());
    }
  }

  private static String gbps(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }
}
