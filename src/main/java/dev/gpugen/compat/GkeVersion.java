package dev.gpugen.compat;

import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A GKE minor version gpugen pins a cluster to, and the last day of its standard support: the
 * latest end a maintenance exclusion of scope {@code NO_MINOR_OR_NODE_UPGRADES} may have.
 *
 * @param minor the minor version, e.g. {@code 1.35}
 * @param endOfStandardSupport the last day of standard support (GKE's release schedule)
 * @param sources the URLs the values come from
 */
public record GkeVersion(String minor, LocalDate endOfStandardSupport, List<String> sources)
    implements CompatRow {
  /** A minor version: {@code 1.35}. */
  public static final Pattern MINOR = Pattern.compile("1\\.[0-9]{2}");

  public GkeVersion {
    Objects.requireNonNull(minor, "minor");
    Objects.requireNonNull(endOfStandardSupport, "endOfStandardSupport");
    sources = List.copyOf(sources);
  }

  @Override
  public String key() {
    return minor;
  }
}
