package dev.gpugen.report;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One host's report, {@code reports/<host>.json} as play 05 writes it. Fields later versions of
 * play 05 added ({@code pool}, {@code cluster}, {@code spec_sha256}, {@code validated_at}, {@code
 * versions}) are "" or empty when an older report lacks them.
 *
 * @param file the report's file name, for messages
 * @param checks in the order of {@link Checks#ORDER}, then by name
 */
public record HostReport(
    String file,
    String host,
    String pool,
    String cluster,
    boolean passed,
    List<Check> checks,
    String validatedAt,
    String specSha256,
    SortedMap<String, String> versions) {
  /** How play 05 writes the single-node threshold into the all-reduce check's expectation. */
  private static final Pattern THRESHOLD = Pattern.compile("^busbw >= ([0-9]+(?:\\.[0-9]+)?) GB/s");

  public HostReport {
    Objects.requireNonNull(file);
    Objects.requireNonNull(host);
    Objects.requireNonNull(pool);
    Objects.requireNonNull(cluster);
    checks = List.copyOf(checks);
    Objects.requireNonNull(validatedAt);
    Objects.requireNonNull(specSha256);
    versions = Collections.unmodifiableSortedMap(new TreeMap<>(versions));
  }

  public Optional<Check> check(String name) {
    return checks.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /** The single-node all-reduce bus bandwidth, where the node measured one. */
  public OptionalDouble busBandwidth() {
    OptionalDouble d = check(Checks.ALL_REDUCE).map(c -> c.figure("busbw_gbps")).orElse(none());
    return d.isPresent() && d.getAsDouble() > 0 ? d : none();
  }

  /** The pool's single-node threshold the node was judged against, if it had one. */
  public OptionalDouble threshold() {
    return check(Checks.ALL_REDUCE)
        .map(
            c -> {
              Matcher m = THRESHOLD.matcher(c.expected());
              return m.find() ? OptionalDouble.of(Double.parseDouble(m.group(1))) : none();
            })
        .orElse(none());
  }

  /** The outlier check's status: WARN or FAIL when play 05 flagged the node. */
  public boolean outlier() {
    return check(Checks.OUTLIER)
        .map(c -> c.status() == Status.WARN || c.status() == Status.FAIL)
        .orElse(false);
  }

  /** Some check was not tested (the fabric's MPI missing) or has a status gpugen does not know. */
  public boolean notTested() {
    return checks.stream()
        .anyMatch(c -> c.status() == Status.NOT_TESTED || c.status() == Status.OTHER);
  }

  private static OptionalDouble none() {
    return OptionalDouble.empty();
  }
}
