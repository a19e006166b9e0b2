package dev.gpugen.compat;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * What a single node's all-reduce reaches (nccl-tests busbw at large messages) on an NVSwitch
 * system with {@code gpus} GPUs of one model. A heuristic from NCCL maintainers' figures.
 *
 * @param gpu the {@link GpuModel#name()}
 * @param gpus the GPU count the figures are for
 * @param ringGbps bus bandwidth without NVLS (Ring, or collectives other than all-reduce), GB/s
 * @param nvlsGbps all-reduce bus bandwidth with NVLS, GB/s, where the GPU has NVLS
 * @param sources the URLs the values come from
 */
public record AllReduceBandwidth(
    String gpu, int gpus, int ringGbps, OptionalInt nvlsGbps, List<String> sources)
    implements CompatRow {
  public AllReduceBandwidth {
    Objects.requireNonNull(gpu, "gpu");
    Objects.requireNonNull(nvlsGbps, "nvlsGbps");
    sources = List.copyOf(sources);
    if (gpus < 1 || ringGbps < 1) {
      throw new IllegalArgumentException("gpus and ring_gbps must be positive");
    }
  }

  /**
   * The share of the Ring figure a healthy node keeps: below it a node has lost a fifth of its
   * bandwidth. The linter calls a lower threshold lax; a pool without a threshold gets this one.
   */
  public static final double HEALTHY_FRACTION = 0.8;

  /** The lowest bus bandwidth of a healthy node, GB/s: the Ring figure's healthy fraction. */
  public int minHealthyGbps() {
    return (int) Math.ceil(HEALTHY_FRACTION * ringGbps);
  }

  /** The best figure the node can reach: NVLS where it exists, else Ring. */
  public int peakGbps() {
    return nvlsGbps.orElse(ringGbps);
  }

  @Override
  public String key() {
    return gpu;
  }
}
