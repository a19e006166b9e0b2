package dev.gpugen.compat;

import java.util.List;
import java.util.Objects;

/**
 * What FSx for Lustre accepts for one SSD deployment type (CreateFileSystem and UpdateFileSystem
 * API references).
 *
 * @param type the deployment type, e.g. {@code PERSISTENT_2}
 * @param capacityStepGib capacity must be 1200, 2400 or a multiple of this, GiB
 * @param throughputs the accepted PerUnitStorageThroughput values, MB/s/TiB; empty for scratch
 *     types, which take none
 * @param sources the URLs the values come from
 */
public record LustreDeployment(
    String type, int capacityStepGib, List<Integer> throughputs, List<String> sources)
    implements CompatRow {
  public LustreDeployment {
    Objects.requireNonNull(type, "type");
    throughputs = List.copyOf(throughputs);
    sources = List.copyOf(sources);
    if (capacityStepGib < 1) {
      throw new IllegalArgumentException("capacity_step_gib must be positive");
    }
  }

  /** Whether FSx accepts {@code gib} as this type's storage capacity. */
  public boolean acceptsCapacity(int gib) {
    return gib == 1200 || gib == 2400 || (gib > 0 && gib % capacityStepGib == 0);
  }

  /** Whether the type takes a PerUnitStorageThroughput (the persistent types). */
  public boolean takesThroughput() {
    return !throughputs.isEmpty();
  }

  @Override
  public String key() {
    return type;
  }
}
