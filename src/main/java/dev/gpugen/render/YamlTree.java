package dev.gpugen.render;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Block-style YAML for a data tree (maps, lists, strings, numbers, booleans), each line indented by
 * a given number of spaces, for templates that embed a computed tree ({@code [=yamlTree(x, 8)]}).
 * Strings are always double-quoted by {@link Escape#yaml}, or {@code !unsafe}-tagged by {@link
 * Escape#ansible} for Ansible vars files; map keys are plain only when they are identifiers.
 */
final class YamlTree {
  private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private YamlTree() {}

  static String write(Object tree, int indent, boolean unsafe) {
    StringBuilder b = new StringBuilder();
    node(b, tree, indent, unsafe);
    // The template supplies the last line break.
    return b.substring(0, b.length() - 1);
  }

  private static void node(StringBuilder b, Object v, int indent, boolean unsafe) {
    String pad = " ".repeat(indent);
    if (v instanceof Map<?, ?> m && !m.isEmpty()) {
      for (Map.Entry<?, ?> e : m.entrySet()) {
        b.append(pad).append(key(String.valueOf(e.getKey()))).append(':');
        child(b, e.getValue(), indent, unsafe);
      }
    } else if (v instanceof List<?> l && !l.isEmpty()) {
      for (Object item : l) {
        b.append(pad).append('-');
        if (item instanceof Map<?, ?> m && !m.isEmpty()) {
          // The first key on the dash's line, the others under it.
          StringBuilder inner = new StringBuilder();
          node(inner, item, indent + 2, unsafe);
          b.append(' ').append(inner.substring(indent + 2));
        } else {
          child(b, item, indent, unsafe);
        }
      }
    } else {
      b.append(pad).append(scalar(v, unsafe)).append('\n');
    }
  }

  private static void child(StringBuilder b, Object v, int indent, boolean unsafe) {
    if ((v instanceof Map<?, ?> m && !m.isEmpty()) || (v instanceof List<?> l && !l.isEmpty())) {
      b.append('\n');
      node(b, v, indent + 2, unsafe);
    } else {
      b.append(' ').append(scalar(v, unsafe)).append('\n');
    }
  }

  private static String key(String k) {
    return PLAIN_KEY.matcher(k).matches() ? k : Escape.yaml(k);
  }

  private static String scalar(Object v, boolean unsafe) {
    if (v == null) {
      return "null";
    } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long) {
      return String.valueOf(v);
    } else if (v instanceof String s) {
      return unsafe ? Escape.ansible(s) : Escape.yaml(s);
    } else if (v instanceof Map<?, ?>) {
      return "{}";
    } else if (v instanceof List<?>) {
      return "[]";
    }
    throw new IllegalArgumentException("not YAML data: " + v.getClass().getName());
  }
}
