package dev.gpugen.report;

import java.util.Locale;

/**
 * A check's status as play 05 writes it. A status this gpugen does not know (a newer play, a hand
 * edit) is {@link #OTHER}: shown as written, counted as neither passed nor failed.
 */
public enum Status {
  PASS("pass", "passed"),
  FAIL("fail", "failed"),
  WARN("warn", "warning"),
  SKIPPED("skipped", "skipped"),
  NOT_TESTED("not-tested", "not tested"),
  OTHER("", "unknown");

  private final String word;
  private final String label;

  Status(String word, String label) {
    this.word = word;
    this.label = label;
  }

  /** The word in the report ({@code pass}, {@code not-tested}). */
  public String word() {
    return word;
  }

  /** How the page and the JUnit file say it. */
  public String label() {
    return label;
  }

  /** A CSS class name part: the word, or {@code other}. */
  public String css() {
    return this == OTHER ? "other" : word;
  }

  static Status of(String word) {
    for (Status s : values()) {
      if (s != OTHER && s.word.equals(word.toLowerCase(Locale.ROOT))) {
        return s;
      }
    }
    return OTHER;
  }
}
