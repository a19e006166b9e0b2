package dev.gpugen.spec.yaml;

import dev.gpugen.spec.Diagnostics;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SourceMap;
import dev.gpugen.spec.SpecPath;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * Checks a YAML node tree against a {@link Shape} and turns it into plain values (maps, lists,
 * strings, longs, doubles, booleans) with defaults filled in. Reports every problem it finds, with
 * the position of the offending key or value; a value that is wrong is left out of the result.
 */
public final class Binder {
  private static final Set<Tag> STANDARD_TAGS =
      Set.of(Tag.STR, Tag.INT, Tag.FLOAT, Tag.BOOL, Tag.NULL, Tag.MAP, Tag.SEQ);

  private final Diagnostics diags;
  private final SourceMap sources;

  public Binder(Diagnostics diags) {
    this.diags = diags;
    this.sources = diags.sources();
  }

  /** Records where every key and value stands, before anything is checked. */
  public void index(Node node, SpecPath path) {
    sources.putValue(path, SafeYaml.toPosition(node.getStartMark()));
    if (node instanceof ScalarNode scalar) {
      sources.putText(path, SafeYaml.toPosition(node.getStartMark()), scalar.getValue());
    }
    if (node instanceof MappingNode m) {
      Set<String> seen = new HashSet<>();
      for (NodeTuple t : m.getValue()) {
        if (t.getKeyNode() instanceof ScalarNode k) {
          SpecPath child = path.key(k.getValue());
          if (!seen.add(k.getValue())) {
            // The composer keeps both entries; only the constructor would notice, and we bind by
            // hand.
            diags.add(
                Severity.ERROR,
                "spec-duplicate-key",
                child,
                SafeYaml.toPosition(k.getStartMark()),
                child + " appears twice in this mapping",
                "each key may appear once; merge the two entries");
            continue;
          }
          sources.putKey(child, SafeYaml.toPosition(k.getStartMark()));
          sources.putText(child, SafeYaml.toPosition(k.getStartMark()), k.getValue());
          index(t.getValueNode(), child);
        }
      }
    } else if (node instanceof SequenceNode s) {
      List<Node> items = s.getValue();
      for (int i = 0; i < items.size(); i++) {
        index(items.get(i), path.index(i));
      }
    }
  }

  /** Returns the bound value, or null when the node is invalid (already reported). */
  public Object bind(Node node, Shape shape, SpecPath path) {
    if (!STANDARD_TAGS.contains(node.getTag())) {
      diags.error(
          "spec-type",
          path,
          path + " has the YAML tag " + node.getTag() + ", which gpugen does not accept",
          "remove the tag; specs hold plain values only");
      return null;
    }
    if (shape instanceof Shape.Obj obj) {
      return bindObj(node, obj, path);
    } else if (shape instanceof Shape.MapOf map) {
      return bindMap(node, map, path);
    } else if (shape instanceof Shape.ListOf list) {
      return bindList(node, list, path);
    }
    if (!(node instanceof ScalarNode scalar)) {
      typeError(path, shape, node);
      return null;
    }
    return bindScalar(scalar, shape, path);
  }

  private Object bindObj(Node node, Shape.Obj obj, SpecPath path) {
    if (!(node instanceof MappingNode m)) {
      typeError(path, obj, node);
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    Map<String, Node> present = new LinkedHashMap<>();
    for (NodeTuple t : m.getValue()) {
      String key = ((ScalarNode) t.getKeyNode()).getValue();
      SpecPath child = path.key(key);
      var field = obj.field(key);
      if (field.isEmpty() && obj.moved().containsKey(key)) {
        String to = obj.moved().get(key);
        diags.errorAtKey(
            "spec-key-moved",
            child,
            child + " has moved to " + to + ", so it is not read here",
            "move the mapping under " + to.substring(0, to.lastIndexOf('.')) + ": as " + to);
        continue;
      }
      if (field.isEmpty()) {
        List<String> known = obj.fields().stream().map(Shape.Field::key).toList();
        String suggestion = Suggest.closest(key, known);
        diags.errorAtKey(
            "spec-unknown-key",
            child,
            child
                + " is not a known key"
                + (suggestion == null ? "" : "; did you mean " + suggestion + "?"),
            suggestion == null ? "known keys here: " + String.join(", ", known) : null);
        continue;
      }
      present.put(key, t.getValueNode());
    }
    for (Shape.Field f : obj.fields()) {
      Node v = present.get(f.key());
      SpecPath child = path.key(f.key());
      if (v == null || isNull(v)) {
        if (f.required() && v != null && f.shape() instanceof Shape.Obj inner) {
          // "metadata:" written but empty: what is missing is inside it, not the key itself.
          for (Shape.Field g : inner.fields()) {
            if (g.required()) {
              diags.errorAtKey(
                  "spec-missing-key",
                  child,
                  child + " needs " + g.key() + " (" + g.doc() + ")",
                  "add " + g.key() + ": " + g.shape().describe() + ", indented under " + f.key());
            }
          }
        } else if (f.required()) {
          diags.errorAtKey(
              "spec-missing-key",
              v == null ? path : child,
              (path.isRoot() ? "" : path + " ") + "needs " + f.key() + " (" + f.doc() + ")",
              "add " + f.key() + ": " + f.shape().describe());
        } else if (f.defaultValue() != null) {
          out.put(f.key(), f.defaultValue());
        } else if (f.shape() instanceof Shape.Obj inner && hasDefaults(inner)) {
          // An absent section still gets its defaults, so the model is complete.
          out.put(
              f.key(), bindObj(new MappingNode(Tag.MAP, List.of(), FlowStyle.AUTO), inner, child));
        }
        continue;
      }
      Object bound = bind(v, f.shape(), child);
      if (bound != null) {
        out.put(f.key(), bound);
      }
    }
    return out;
  }

  private static boolean hasDefaults(Shape.Obj obj) {
    for (Shape.Field f : obj.fields()) {
      if (f.required()) {
        return false;
      }
    }
    return obj.fields().stream()
        .anyMatch(
            f -> f.defaultValue() != null || (f.shape() instanceof Shape.Obj o && hasDefaults(o)));
  }

  private Object bindMap(Node node, Shape.MapOf map, SpecPath path) {
    if (!(node instanceof MappingNode m)) {
      typeError(path, map, node);
      return null;
    }
    if (m.getValue().size() > map.maxEntries()) {
      diags.error(
          "spec-range",
          path,
          path + " has " + m.getValue().size() + " entries; at most " + map.maxEntries(),
          null);
      return null;
    }
    Map<String, Object> out = new TreeMap<>();
    for (NodeTuple t : m.getValue()) {
      ScalarNode k = (ScalarNode) t.getKeyNode();
      SpecPath child = path.key(k.getValue());
      Object key = bindScalarAt(k, map.key(), child, true);
      Object value = bind(t.getValueNode(), map.value(), child);
      if (key != null && value != null) {
        out.put((String) key, value);
      }
    }
    return out;
  }

  private Object bindList(Node node, Shape.ListOf list, SpecPath path) {
    if (!(node instanceof SequenceNode s)) {
      typeError(path, list, node);
      return null;
    }
    int n = s.getValue().size();
    if (n < list.minItems() || n > list.maxItems()) {
      diags.error(
          "spec-range",
          path,
          path
              + " has "
              + n
              + (n == 1 ? " item" : " items")
              + "; it needs "
              + (list.minItems() == list.maxItems()
                  ? list.minItems()
                  : list.minItems() + " to " + list.maxItems()),
          null);
    }
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Object v = bind(s.getValue().get(i), list.item(), path.index(i));
      if (v != null) {
        out.add(v);
      }
    }
    return out;
  }

  /**
   * A hint that leads to a valid value: quoting is enough for {@code cuda: 12.10}, not for {@code
   * name: 42}, which must also start with a letter.
   */
  private static String quoteHint(Shape.Str str, String text) {
    if (str.pattern().matcher(text).matches()) {
      return "write it in quotes: \"" + text + "\"";
    }
    String example = "gpu-" + text.toLowerCase(Locale.ROOT).replace('.', '-');
    if (str.pattern().matcher(example).matches()) {
      return "write e.g. \"" + example + "\": quotes alone give \"" + text + "\", not valid either";
    }
    return "write " + str.what();
  }

  /**
   * The hint for a string where a number belongs: a quoted number loses its quotes; a word ({@code
   * count: two}), quoted or not, becomes digits.
   */
  private static String numberHint(ScalarNode node, Tag tag, String text) {
    if (!tag.equals(Tag.STR)) {
      return null;
    }
    boolean digits = text.strip().matches("[-+]?[0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]+)?");
    if (!node.isPlain() && digits) {
      return "remove the quotes";
    }
    return "write the number in digits" + (node.isPlain() ? "" : ", without quotes");
  }

  private Object bindScalar(ScalarNode node, Shape shape, SpecPath path) {
    return bindScalarAt(node, shape, path, false);
  }

  private Object bindScalarAt(ScalarNode node, Shape shape, SpecPath path, boolean isKey) {
    Tag tag = node.getTag();
    String text = node.getValue();
    String where = isKey ? "the key " + path : path.toString();
    if (shape instanceof Shape.Str str) {
      // A number or boolean may stand for its text where the shape says so; a null never does:
      // YAML tools read "!!null WARN" or "null" as no value, and so must gpugen.
      if (!tag.equals(Tag.STR) && (!str.scalarText() || tag.equals(Tag.NULL))) {
        report(
            isKey,
            "spec-type",
            path,
            where + " must be " + str.what() + ", not a " + kind(tag),
            quoteHint(str, text));
        return null;
      }
      if (text.length() > str.maxLength()) {
        report(
            isKey,
            "spec-value",
            path,
            where + " is " + text.length() + " characters long; at most " + str.maxLength(),
            null);
        return null;
      }
      if (!str.pattern().matcher(text).matches()) {
        report(
            isKey,
            "spec-value",
            path,
            where + " is " + Quote.forMessage(text) + "; it must be " + str.what(),
            null);
        return null;
      }
      java.util.Optional<Shape.Refusal> reserved = str.reserved().why(text);
      if (reserved.isPresent()) {
        report(
            isKey,
            "spec-value",
            path,
            where + " is " + Quote.forMessage(text) + ": " + reserved.get().why(),
            reserved.get().fix());
        return null;
      }
      return text;
    }
    if (shape instanceof Shape.Enum e) {
      if (!tag.equals(Tag.STR) || !e.values().contains(text)) {
        String s = Suggest.closest(text, e.values());
        report(
            isKey,
            "spec-enum",
            path,
            where
                + " is "
                + Quote.forMessage(text)
                + "; it must be one of "
                + String.join(", ", e.values())
                + (s == null ? "" : "; did you mean " + s + "?"),
            null);
        return null;
      }
      return text;
    }
    if (shape instanceof Shape.Int i) {
      if (!tag.equals(Tag.INT)) {
        report(
            isKey,
            "spec-type",
            path,
            where + " must be " + i.describe() + ", not a " + kind(tag) + " (" + text + ")",
            numberHint(node, tag, text));
        return null;
      }
      long v;
      try {
        v = Long.parseLong(text);
      } catch (NumberFormatException ex) {
        v = text.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
      }
      if (v < i.min() || v > i.max()) {
        report(
            isKey,
            "spec-range",
            path,
            where + " is " + text + "; it must be " + i.describe(),
            null);
        return null;
      }
      return v;
    }
    if (shape instanceof Shape.Num num) {
      if (!tag.equals(Tag.INT) && !tag.equals(Tag.FLOAT)) {
        report(
            isKey,
            "spec-type",
            path,
            where + " must be " + num.describe() + ", not a " + kind(tag),
            numberHint(node, tag, text));
        return null;
      }
      double v;
      try {
        v = Double.parseDouble(text);
      } catch (NumberFormatException ex) {
        // YAML's .inf, -.inf and .nan: no threshold or size is infinite or not a number.
        v = Double.NaN;
      }
      if (!(v >= num.min() && v <= num.max())) {
        report(
            isKey,
            "spec-range",
            path,
            where + " is " + text + "; it must be " + num.describe(),
            null);
        return null;
      }
      return v;
    }
    if (shape instanceof Shape.Bool) {
      if (!tag.equals(Tag.BOOL)) {
        report(
            isKey,
            "spec-type",
            path,
            where + " must be true or false, not " + Quote.forMessage(text),
            "YAML 1.2 booleans are only true and false");
        return null;
      }
      return Boolean.parseBoolean(text);
    }
    throw new IllegalStateException("unhandled shape " + shape);
  }

  private void report(boolean isKey, String rule, SpecPath path, String msg, String hint) {
    if (isKey) {
      diags.errorAtKey(rule, path, msg, hint);
    } else {
      diags.error(rule, path, msg, hint);
    }
  }

  private void typeError(SpecPath path, Shape expected, Node got) {
    String gotKind =
        got instanceof MappingNode
            ? "mapping"
            : got instanceof SequenceNode ? "list" : kind(got.getTag());
    diags.error(
        "spec-type",
        path,
        (path.isRoot() ? "the spec" : path.toString())
            + " must be "
            + expected.describe()
            + ", not a "
            + gotKind,
        null);
  }

  private static boolean isNull(Node n) {
    return n instanceof ScalarNode && n.getTag().equals(Tag.NULL);
  }

  private static String kind(Tag tag) {
    if (tag.equals(Tag.INT)) {
      return "whole number";
    } else if (tag.equals(Tag.FLOAT)) {
      return "decimal number";
    } else if (tag.equals(Tag.BOOL)) {
      return "boolean";
    } else if (tag.equals(Tag.NULL)) {
      return "null";
    }
    return "string";
  }
}
