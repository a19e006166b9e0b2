package dev.gpugen.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** A typed path into the spec, printed the way users write it: {@code pools[0].instanceType}. */
public record SpecPath(List<Object> segments) implements Comparable<SpecPath> {
  public static final SpecPath ROOT = new SpecPath(List.of());

  public SpecPath {
    segments = List.copyOf(segments);
    for (Object s : segments) {
      if (!(s instanceof String) && !(s instanceof Integer)) {
        throw new IllegalArgumentException("segment must be a key or an index: " + s);
      }
    }
  }

  public static SpecPath of(Object... segments) {
    return new SpecPath(List.of(segments));
  }

  public SpecPath key(String key) {
    return append(Objects.requireNonNull(key));
  }

  public SpecPath index(int index) {
    return append(index);
  }

  private SpecPath append(Object segment) {
    List<Object> next = new ArrayList<>(segments);
    next.add(segment);
    return new SpecPath(next);
  }

  public boolean isRoot() {
    return segments.isEmpty();
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Object s : segments) {
      if (s instanceof Integer i) {
        b.append('[').append(i).append(']');
      } else {
        String key = (String) s;
        // Keys with dots (sysctl names, label keys) are quoted so the path stays unambiguous.
        boolean plain = plain(key);
        if (!plain) {
          b.append("[\"").append(key.replace("\"", "\\\"")).append("\"]");
        } else {
          if (b.length() > 0) {
            b.append('.');
          }
          b.append(key);
        }
      }
    }
    return b.toString();
  }

  /**
   * {@code key} matches {@code [A-Za-z_][A-Za-z0-9_-]*}, written out: {@code String.matches}
   * compiles its pattern on every call, and a render prints thousands of paths.
   */
  private static boolean plain(String key) {
    if (key.isEmpty()) {
      return false;
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      boolean letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
      if (!letter && (i == 0 || !((c >= '0' && c <= '9') || c == '-'))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int compareTo(SpecPath o) {
    return toString().compareTo(o.toString());
  }

  // Written out, with the value the generated ones compute, for the reason given in Position.
  @Override
  public boolean equals(Object o) {
    return o instanceof SpecPath p && segments.equals(p.segments);
  }

  @Override
  public int hashCode() {
    return segments.hashCode();
  }
}
