package dev.gpugen.compat;

import java.util.List;
import java.util.Objects;

/**
 * A defect of specific driver releases that the GPU Operator release notes list as a known issue.
 *
 * @param id a stable name for the issue, e.g. {@code mixed-mig-pending-pods}
 * @param drivers the exact driver versions affected
 * @param fixedIn the first release without the defect
 * @param when the condition under which it bites, e.g. {@code mig} (only with MIG in use)
 * @param description what goes wrong, one line
 * @param sources the URLs the values come from
 */
public record DriverKnownIssue(
    String id,
    List<Version> drivers,
    Version fixedIn,
    String when,
    String description,
    List<String> sources)
    implements CompatRow {
  public DriverKnownIssue {
    Objects.requireNonNull(id, "id");
    drivers = List.copyOf(drivers);
    Objects.requireNonNull(fixedIn, "fixedIn");
    Objects.requireNonNull(when, "when");
    Objects.requireNonNull(description, "description");
    sources = List.copyOf(sources);
  }

  /** Whether {@code driver} is one of the affected releases. */
  public boolean affects(Version driver) {
    return drivers.contains(driver);
  }

  @Override
  public String key() {
    return id;
  }
}
