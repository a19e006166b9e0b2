package dev.gpugen.compat;

import java.util.List;
import java.util.Objects;

/**
 * A CUDA toolkit release and the minimum Linux x86_64 driver it needs (CUDA release notes, Table
 * 3).
 *
 * @param version the release, e.g. {@code 12.8} (GA) or {@code 12.8u1} (Update 1)
 * @param minDriver the minimum driver; below it the toolkit runs only under minor-version
 *     compatibility, if at all
 * @param verified false where the sources mark the value as unconfirmed
 * @param sources the URLs the values come from
 */
public record CudaRelease(
    Version version, Version minDriver, boolean verified, List<String> sources)
    implements CompatRow {
  public CudaRelease {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(minDriver, "minDriver");
    sources = List.copyOf(sources);
  }

  @Override
  public String key() {
    return version.toString();
  }
}
