package dev.gpugen.drift;

import java.util.Objects;

/**
 * One difference between the spec and what runs.
 *
 * @param level {@code cloud} (EC2) or {@code node} (the node's facts)
 * @param pool the spec's pool, or the pool tag of an instance the spec does not know
 * @param host the instance id or inventory host name; empty for a whole-pool finding
 * @param kind what differs, e.g. {@code missing}, {@code instance-type}, {@code nccl-conf}
 * @param expected what the spec says
 * @param actual what was found
 * @param fix the command that puts it right, or empty where gpugen cannot name one
 */
public record Finding(
    String level, String pool, String host, String kind, String expected, String actual, String fix)
    implements Comparable<Finding> {
  public Finding(
      String level, String pool, String host, String kind, String expected, String actual) {
    this(level, pool, host, kind, expected, actual, "");
  }

  public Finding {
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(actual, "actual");
    Objects.requireNonNull(fix, "fix");
  }

  @Override
  public int compareTo(Finding o) {
    int c = level.compareTo(o.level);
    c = c != 0 ? c : pool.compareTo(o.pool);
    c = c != 0 ? c : host.compareTo(o.host);
    return c != 0 ? c : kind.compareTo(o.kind);
  }
}
