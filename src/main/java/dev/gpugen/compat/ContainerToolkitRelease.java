package dev.gpugen.compat;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An NVIDIA Container Toolkit release (toolkit release notes).
 *
 * @param version the release, e.g. {@code 1.17.8}
 * @param fixesCves the CVEs this release fixes, e.g. {@code CVE-2025-23359}
 * @param knownIssue a known defect that makes the release one to avoid, if any
 * @param sources the URLs the values come from
 */
public record ContainerToolkitRelease(
    Version version, List<String> fixesCves, Optional<String> knownIssue, List<String> sources)
    implements CompatRow {
  public ContainerToolkitRelease {
    Objects.requireNonNull(version, "version");
    fixesCves = List.copyOf(fixesCves);
    Objects.requireNonNull(knownIssue, "knownIssue");
    sources = List.copyOf(sources);
  }

  @Override
  public String key() {
    return version.toString();
  }
}
