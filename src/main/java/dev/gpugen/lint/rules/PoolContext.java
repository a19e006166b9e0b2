package dev.gpugen.lint.rules;

import dev.gpugen.compat.CompatTable;
import dev.gpugen.compat.Version;
import dev.gpugen.plan.Hardware;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.SpecPath;

/**
 * One pool as a {@link PoolRule} sees it.
 *
 * @param index the pool's position in {@code pools}
 */
public record PoolContext(
    ClusterSpec spec, int index, ClusterSpec.Pool pool, Hardware hardware, CompatTable table) {

  public ClusterSpec.Software software() {
    return pool.software();
  }

  public Version driver() {
    return Version.parse(pool.software().driver());
  }

  public Version cuda() {
    return Version.parse(pool.software().cuda());
  }

  /** {@code pools[i].KEY...}. */
  public SpecPath path(Object... keys) {
    SpecPath p = SpecPath.of("pools", index);
    for (Object k : keys) {
      p = k instanceof Integer n ? p.index(n) : p.key((String) k);
    }
    return p;
  }

  /** "pool h100 (p5.48xlarge, 8x H100)", for messages. */
  public String describe() {
    String gpu =
        hardware
            .gpu()
            .map(
                g ->
                    ", "
                        + (hardware.gpuCount().isPresent()
                            ? hardware.gpuCount().getAsInt() + "x "
                            : "")
                        + g.name())
            .orElse("");
    if (pool.instanceType().isEmpty()) {
      // A static pool: no instance type, only the declared GPUs.
      return "pool " + pool.name() + (gpu.isEmpty() ? "" : " (" + gpu.substring(2) + ")");
    }
    return "pool " + pool.name() + " (" + pool.instanceType() + gpu + ")";
  }
}
