package dev.gpugen.spec;

import java.util.Locale;

/** How bad a finding is. Ordered from worst to mildest. */
public enum Severity {
  ERROR,
  WARNING,
  INFO;

  /** The lower-case word used in printed diagnostics and in the spec's {@code lint.severity}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** True when this severity is at least as bad as {@code threshold}. */
  public boolean atLeast(Severity threshold) {
    return ordinal() <= threshold.ordinal();
  }
}
