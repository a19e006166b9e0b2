package dev.gpugen.plan;

import dev.gpugen.spec.Keyword;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;

/**
 * The canonical text of a model value, which the fingerprint hashes. Defined here rather than left
 * to {@code Record.toString()}, whose format the JDK does not specify: JSON with the record
 * components in declaration order, maps sorted by key, an empty {@code Optional} as {@code null},
 * numbers in Java's shortest round-trip form, strings JSON-escaped.
 */
final class Canonical {
  private Canonical() {}

  /** {@code value} as canonical JSON, leaving out the named components of the top record. */
  static String json(Record value, Set<String> leaveOut) {
    StringBuilder b = new StringBuilder();
    record(b, value, leaveOut);
    return b.toString();
  }

  /**
   * {@code value} as JSON data (maps sorted by key, lists, strings, numbers, booleans, null) by the
   * same rules as {@link #json}, for a printer to format.
   */
  static Object tree(Object v) {
    if (v == null) {
      return null;
    } else if (v instanceof Optional<?> o) {
      return tree(o.orElse(null));
    } else if (v instanceof OptionalInt o) {
      return o.isPresent() ? o.getAsInt() : null;
    } else if (v instanceof Keyword k) {
      return k.spelling();
    } else if (v instanceof Enum<?> e) {
      return e.name();
    } else if (v instanceof String || v instanceof Boolean || v instanceof Number) {
      return v;
    } else if (v instanceof dev.gpugen.spec.Cidr c) {
      // As the spec writes it (10.0.0.0/16), not its two numbers.
      return c.toString();
    } else if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new TreeMap<>();
      m.forEach((k, x) -> out.put(k.toString(), tree(x)));
      return out;
    } else if (v instanceof Collection<?> c) {
      java.util.List<Object> out = new java.util.ArrayList<>();
      c.forEach(x -> out.add(tree(x)));
      return out;
    } else if (v instanceof Record r) {
      Map<String, Object> out = new TreeMap<>();
      for (RecordComponent c : r.getClass().getRecordComponents()) {
        try {
          out.put(c.getName(), tree(c.getAccessor().invoke(r)));
        } catch (IllegalAccessException | InvocationTargetException e) {
          throw new IllegalStateException("model records are public: " + c, e);
        }
      }
      return out;
    }
    // Value types of the spec (a CIDR, a version, a path) print as they read.
    return v.toString();
  }

  private static void write(StringBuilder b, Object v) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof Optional<?> o) {
      write(b, o.orElse(null));
    } else if (v instanceof OptionalInt o) {
      write(b, o.isPresent() ? o.getAsInt() : null);
    } else if (v instanceof String s) {
      string(b, s);
    } else if (v instanceof Keyword k) {
      // A spec word as the spec writes it, so the fingerprint names no Java constant.
      string(b, k.spelling());
    } else if (v instanceof Enum<?> e) {
      string(b, e.name());
    } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long) {
      b.append(v);
    } else if (v instanceof Double d) {
      b.append(d);
    } else if (v instanceof Map<?, ?> m) {
      b.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : new TreeMap<>(m).entrySet()) {
        first = comma(b, first);
        string(b, e.getKey().toString());
        b.append(':');
        write(b, e.getValue());
      }
      b.append('}');
    } else if (v instanceof Collection<?> c) {
      b.append('[');
      boolean first = true;
      for (Object o : c) {
        first = comma(b, first);
        write(b, o);
      }
      b.append(']');
    } else if (v instanceof Record r) {
      record(b, r, Set.of());
    } else {
      throw new IllegalArgumentException("no canonical form for " + v.getClass());
    }
  }

  /**
   * Components added after renders recorded fingerprints: left out while empty, so that a spec
   * which does not set them keeps the fingerprint an earlier gpugen recorded.
   */
  private static final Set<String> ADDED_LATER = Set.of("addonVersions");

  private static void record(StringBuilder b, Record r, Set<String> leaveOut) {
    b.append('{');
    boolean first = true;
    for (RecordComponent c : r.getClass().getRecordComponents()) {
      if (leaveOut.contains(c.getName())) {
        continue;
      }
      Object value;
      try {
        value = c.getAccessor().invoke(r);
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("model records are public: " + c, e);
      }
      if (ADDED_LATER.contains(c.getName()) && value instanceof Map<?, ?> m && m.isEmpty()) {
        continue;
      }
      first = comma(b, first);
      string(b, c.getName());
      b.append(':');
      write(b, value);
    }
    b.append('}');
  }

  private static boolean comma(StringBuilder b, boolean first) {
    if (!first) {
      b.append(',');
    }
    return false;
  }

  private static void string(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (ch < 0x20) {
            b.append(String.format("\\u%04x", (int) ch));
          } else {
            b.append(ch);
          }
        }
      }
    }
    b.append('"');
  }
}
