package dev.gpugen.report;

import java.util.Objects;
import java.util.OptionalDouble;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One check of one host's report.
 *
 * @param name the check's key ({@code gpu_burn})
 * @param status its status; {@code rawStatus} is the word as written
 * @param expected what play 05 compared against, as it wrote it ("" if absent)
 * @param measured what the node measured ("" if absent)
 * @param figures the check's numeric fields ({@code busbw_gbps}, {@code gflops}, the outlier
 *     check's medians and percentages), by name
 */
public record Check(
    String name,
    Status status,
    String rawStatus,
    String expected,
    String measured,
    SortedMap<String, Double> figures) {
  public Check {
    Objects.requireNonNull(name);
    Objects.requireNonNull(status);
    Objects.requireNonNull(rawStatus);
    Objects.requireNonNull(expected);
    Objects.requireNonNull(measured);
    figures = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(figures));
  }

  /** A numeric field, if the check has it. */
  public OptionalDouble figure(String field) {
    Double d = figures.get(field);
    return d == null ? OptionalDouble.empty() : OptionalDouble.of(d);
  }

  /** The reason shown on hover and in the JUnit message: measured and expected, as written. */
  public String reason() {
    StringBuilder b = new StringBuilder(status.label());
    if (status == Status.OTHER) {
      b.append(" status \"").append(rawStatus).append('"');
    }
    if (!measured.isEmpty()) {
      b.append(": measured ").append(measured);
    }
    if (!expected.isEmpty()) {
      b.append(measured.isEmpty() ? ": expected " : "; expected ").append(expected);
    }
    return b.toString();
  }

  static Check of(String name, String rawStatus, String expected, String measured) {
    return new Check(name, Status.of(rawStatus), rawStatus, expected, measured, new TreeMap<>());
  }
}
