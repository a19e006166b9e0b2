package dev.gpugen.lint.rules.val;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;

/** all_reduce_perf with -b above -e measures nothing, and play 05 finds no bandwidth line. */
public final class ValNcclSizeRangeEmpty extends PoolRule {
  public ValNcclSizeRangeEmpty() {
    super(
        "val-nccl-size-range-empty",
        Severity.ERROR,
        "the all-reduce test's smallest message is larger than its largest",
        "nccl-tests' all_reduce_perf sweeps message sizes from -b (minBytes) to -e (maxBytes);"
            + " with minBytes above maxBytes there is no size to run, so play 05 has no bus"
            + " bandwidth to judge and fails every node. Each pool is judged on its effective"
            + " values (pools[].validation overrides the cluster-wide validation)."
            + " Source: https://github.com/NVIDIA/nccl-tests/blob/master/README.md");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    ClusterSpec.Validation v = p.pool().validation();
    if (ValNcclTestTooSmall.bytes(v.minBytes()) > ValNcclTestTooSmall.bytes(v.maxBytes())) {
      findings.report(
          findings.validation(p.index(), "ncclAllReduce", "minBytes"),
          "minBytes " + v.minBytes() + " is larger than maxBytes " + v.maxBytes(),
          "lower minBytes (8 by default) or raise maxBytes");
    }
  }
}
