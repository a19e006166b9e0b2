package dev.gpugen.lint.rules.nccl;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import java.util.Optional;

/** NCCL_BUFFSIZE should be a power of two bytes. */
public final class NcclBuffsizeNotPowerOfTwo extends Rule {
  public NcclBuffsizeNotPowerOfTwo() {
    super(
        "nccl-buffsize-not-power-of-two",
        Severity.WARNING,
        "NCCL_BUFFSIZE is not a power of two",
        "NCCL_BUFFSIZE is the size in bytes of the buffers NCCL uses between pairs of GPUs"
            + " (default 4194304, 4 MiB). NCCL's documentation recommends powers of two; other sizes"
            + " split into uneven slices and steps. It is also a debugging variable that is best"
            + " left at its default (aws-ofi-nccl sets it per platform on AWS)."
            + " Source: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html");
  }

  static long nearestPowerOfTwo(long x) {
    long below = Long.highestOneBit(x);
    long above = below << 1;
    return above > 0 && above - x < x - below ? above : below;
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    Optional<String> value = Nccl.get(spec, "NCCL_BUFFSIZE");
    if (value.isEmpty()) {
      return;
    }
    Optional<Long> n = Nccl.integer(value.get());
    if (n.isPresent() && n.get() > 0 && Long.bitCount(n.get()) == 1) {
      return;
    }
    long suggestion =
        n.filter(x -> x > 0).map(NcclBuffsizeNotPowerOfTwo::nearestPowerOfTwo).orElse(4194304L);
    findings.report(
        Nccl.path("NCCL_BUFFSIZE"),
        "NCCL_BUFFSIZE=" + value.get() + " is not a power of two bytes",
        "remove it (default 4194304) or use a power of two such as " + suggestion);
  }
}
