package dev.gpugen.lint.rules.val;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.plan.Hardware;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/**
 * A cluster-wide bus-bandwidth threshold reaching a pool whose GPUs it was not set for: nothing
 * says the pool can reach it (an L4 pool added to an H100 spec inheriting 320 GB/s).
 */
public final class ValThresholdInherited extends PoolRule {
  public ValThresholdInherited() {
    super(
        "val-threshold-inherited",
        Severity.WARNING,
        "a pool inherits the cluster's bus-bandwidth threshold without a figure for its GPUs",
        "validation.ncclAllReduce.minBusBandwidthGBps applies to every pool that does not set its"
            + " own. gpugen's table has single-node all-reduce figures only for 8-GPU NVSwitch"
            + " systems (H100 about 370 GB/s without NVLS, A100 about 230 GB/s); a pool of other"
            + " GPUs (8x L4 over PCIe, a 1-GPU size) inherits a number set for other hardware,"
            + " which its healthy nodes may never reach - or pass far too easily. Give the pool its"
            + " own threshold, measured on a healthy node of that type. Without any threshold, a"
            + " pool with a figure gets 80% of it and other pools report the bandwidth only."
            + " Sources: https://github.com/NVIDIA/nccl-tests/issues/212 ,"
            + " https://github.com/NVIDIA/nccl-tests/issues/149");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    // With one pool, the cluster's threshold is that pool's own.
    if (p.pool().validation().minBusBandwidthGBps().isEmpty() || p.spec().pools().size() < 2) {
      return;
    }
    SpecPath own =
        SpecPath.of("pools", p.index(), "validation", "ncclAllReduce", "minBusBandwidthGBps");
    if (findings.isWritten(own)) {
      return;
    }
    Hardware hw = p.hardware();
    if (hw.allReduce().isPresent()) {
      return;
    }
    String gpus =
        hw.gpu()
            .map(g -> (hw.gpuCount().isPresent() ? hw.gpuCount().getAsInt() + "x " : "") + g.name())
            .orElse("its GPUs");
    findings.report(
        findings.validation(p.index(), "ncclAllReduce", "minBusBandwidthGBps"),
        p.describe()
            + " inherits minBusBandwidthGBps "
            + number(p.pool().validation().minBusBandwidthGBps().get())
            + ", but gpugen has no bus-bandwidth figure for "
            + gpus
            + ": the threshold was set for other hardware",
        "give pools["
            + p.index()
            + "].validation.ncclAllReduce its own minBusBandwidthGBps, measured on a healthy"
            + " node of "
            + (p.pool().instanceType().isEmpty() ? "the pool" : p.pool().instanceType()));
  }

  private static String number(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }
}
