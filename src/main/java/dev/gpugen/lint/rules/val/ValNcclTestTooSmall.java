package dev.gpugen.lint.rules.val;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;

/**
 * Bus bandwidth is judged at the largest message; small messages never reach the peak. Judged per
 * pool on its effective maxBytes and threshold.
 */
public final class ValNcclTestTooSmall extends PoolRule {
  static final long ONE_GIB = 1L << 30;

  public ValNcclTestTooSmall() {
    super(
        "val-nccl-test-too-small",
        Severity.WARNING,
        "the all-reduce test stops below 1 GiB but judges bandwidth",
        "gpugen's validation compares the bus bandwidth of nccl-tests' largest message with"
            + " validation.ncclAllReduce.minBusBandwidthGBps. Messages below 1 GiB do not reach the"
            + " hardware's peak - on H100 \"256M is too small to reach peak\" - so a healthy node"
            + " fails the threshold, or the threshold gets lowered until it passes broken ones."
            + " Run to 1G-8G (maxBytes: 8G, the default). Each pool is judged on its own"
            + " maxBytes and threshold (pools[].validation overrides the cluster-wide"
            + " validation)."
            + " Sources: https://github.com/NVIDIA/nccl-tests/issues/212 ,"
            + " https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    ClusterSpec.Validation v = p.pool().validation();
    if (v.minBusBandwidthGBps().isEmpty()) {
      return;
    }
    long bytes = bytes(v.maxBytes());
    if (bytes < ONE_GIB) {
      findings.report(
          findings.validation(p.index(), "ncclAllReduce", "maxBytes"),
          "maxBytes "
              + v.maxBytes()
              + " is too small to reach peak bus bandwidth, yet minBusBandwidthGBps judges it",
          "use maxBytes: 8G");
    }
  }

  /** nccl-tests sizes: a number with an optional K, M or G suffix (powers of 1024). */
  static long bytes(String size) {
    char last = size.charAt(size.length() - 1);
    int shift =
        switch (last) {
          case 'K' -> 10;
          case 'M' -> 20;
          case 'G' -> 30;
          default -> 0;
        };
    String digits = shift == 0 ? size : size.substring(0, size.length() - 1);
    return Long.parseLong(digits) << shift;
  }
}
