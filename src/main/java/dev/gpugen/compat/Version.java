package dev.gpugen.compat;

import dev.gpugen.failure.InvalidInput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A dotted version such as a driver ({@code 580.95.05}, {@code 570.26}), a CUDA release ({@code
 * 12.8}, {@code 12.8u1}) or a component tag ({@code v25.3.0}, {@code 1.17.8}), compared part by
 * part as numbers.
 *
 * <p>Never compare versions as strings: {@code "535.104.05" < "535.54.03"} and {@code "12.10" <
 * "12.9"} as text, but not as versions. Missing trailing parts count as zero, so {@code 12.8}
 * equals {@code 12.8.0}. A CUDA update suffix {@code uN} is one more part: {@code 12.8u1} (CUDA
 * 12.8 Update 1) equals {@code 12.8.1}. A leading {@code v} is allowed and ignored. {@link
 * #toString()} returns the text as written.
 */
public final class Version implements Comparable<Version> {
  private static final String EXPECTED =
      "expected numbers separated by dots, like 580.95.05, 12.8, 12.8u1 or v25.3.0";

  /** Digits per part that always fit in an int. */
  private static final int MAX_DIGITS = 9;

  private final String text;
  private final int[] parts;

  private Version(String text, int[] parts) {
    this.text = text;
    this.parts = parts;
  }

  /**
   * Parses a version.
   *
   * @param text the version as written, e.g. {@code 580.95.05} or {@code 12.8u1}
   * @throws InvalidInput if {@code text} is not a version; the message says why
   */
  public static Version parse(String text) {
    Objects.requireNonNull(text, "text");
    if (text.isEmpty()) {
      throw notAVersion(text, "empty; " + EXPECTED);
    }
    String body = text;
    if (body.charAt(0) == 'v' || body.charAt(0) == 'V') {
      body = body.substring(1);
    }
    String update = null;
    int u = Math.max(body.indexOf('u'), body.indexOf('U'));
    if (u >= 0) {
      update = body.substring(u + 1);
      body = body.substring(0, u);
    }
    // split with limit -1 keeps empty parts, so "12..8" and "12." are rejected below.
    String[] fields = body.split("\\.", -1);
    List<String> digits = new ArrayList<>(Arrays.asList(fields));
    if (update != null) {
      if (fields.length != 2) {
        throw notAVersion(text, "an update suffix needs major.minor before it, like 12.8u1");
      }
      digits.add(update);
    }
    int[] parts = new int[digits.size()];
    for (int i = 0; i < parts.length; i++) {
      parts[i] = number(text, digits.get(i));
    }
    return new Version(text, parts);
  }

  private static int number(String text, String digits) {
    if (digits.isEmpty()) {
      throw notAVersion(text, EXPECTED);
    }
    // A loop, not a stream: every start parses the compatibility table's hundreds of versions.
    for (int i = 0; i < digits.length(); i++) {
      char c = digits.charAt(i);
      if (c < '0' || c > '9') {
        throw notAVersion(text, EXPECTED);
      }
    }
    if (digits.length() > MAX_DIGITS) {
      throw notAVersion(text, "part \"" + digits + "\" is too large");
    }
    return Integer.parseInt(digits);
  }

  /** The first part: {@code 580} for {@code 580.95.05}, {@code 12} for {@code 12.8u1}. */
  public int major() {
    return parts[0];
  }

  /** The second part, or 0 when there is none: {@code 95} for {@code 580.95.05}. */
  public int minor() {
    return parts.length > 1 ? parts[1] : 0;
  }

  /** All numeric parts in order, the update suffix last: {@code [12, 8, 1]} for {@code 12.8u1}. */
  public List<Integer> parts() {
    return Arrays.stream(parts).boxed().toList();
  }

  /**
   * The driver branch name, {@code R} followed by the major part: {@code R580} for {@code
   * 580.95.05}. Only meaningful for driver versions.
   */
  public String branch() {
    return "R" + major();
  }

  /** Whether this version is the same as or newer than {@code other}. */
  public boolean isAtLeast(Version other) {
    return compareTo(other) >= 0;
  }

  /** Whether this version is older than {@code other}. */
  public boolean isBefore(Version other) {
    return compareTo(other) < 0;
  }

  @Override
  public int compareTo(Version other) {
    int n = Math.max(parts.length, other.parts.length);
    for (int i = 0; i < n; i++) {
      int c = Integer.compare(part(i), other.part(i));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private int part(int i) {
    return i < parts.length ? parts[i] : 0;
  }

  /** Equal when {@link #compareTo} is 0, so {@code 12.8} equals {@code 12.8.0}. */
  @Override
  public boolean equals(Object o) {
    return o instanceof Version v && compareTo(v) == 0;
  }

  @Override
  public int hashCode() {
    int n = parts.length;
    while (n > 1 && parts[n - 1] == 0) {
      n--;
    }
    return Arrays.hashCode(Arrays.copyOf(parts, n));
  }

  /** The text exactly as parsed, e.g. {@code v25.3.0} or {@code 12.8u1}. */
  @Override
  public String toString() {
    return text;
  }

  /** The text is not a version; the message names it (exactly as given) and the expected form. */
  private static InvalidInput notAVersion(String input, String reason) {
    return new InvalidInput("not a version: \"" + input + "\": " + reason);
  }
}
