package dev.gpugen.spec.yaml;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The spec's grammar, declared once. The binder checks YAML against it (with positions), {@code
 * gpugen schema} prints it as JSON Schema, and docs/spec.md is generated from it, so the three can
 * never disagree.
 */
public sealed interface Shape {

  /** How the shape is named in messages: "a string", "an integer from 1 to 8". */
  String describe();

  /** A mapping with a fixed set of keys; unknown keys are errors. */
  record Obj(List<Field> fields) implements Shape {
    public Obj {
      fields = List.copyOf(fields);
    }

    public Optional<Field> field(String key) {
      return fields.stream().filter(f -> f.key().equals(key)).findFirst();
    }

    /** The same keys, none required and none defaulted: for overrides and overlays. */
    public Obj allOptional() {
      List<Field> out = new ArrayList<>();
      for (Field f : fields) {
        Shape s = f.shape() instanceof Obj o ? o.allOptional() : f.shape();
        out.add(new Field(f.key(), s, false, null, f.doc()));
      }
      return new Obj(out);
    }

    @Override
    public String describe() {
      return "a mapping";
    }
  }

  /**
   * One key of an {@link Obj}.
   *
   * @param defaultValue filled in by the binder when the key is absent; null for none
   */
  record Field(String key, Shape shape, boolean required, Object defaultValue, String doc) {
    public Field {
      Objects.requireNonNull(key);
      Objects.requireNonNull(shape);
      Objects.requireNonNull(doc);
    }
  }

  /**
   * A string matching {@code pattern}. With {@code scalarText}, plain numbers and booleans are
   * taken as their source text (sysctl values, label values), otherwise they are a type error (so
   * {@code cuda: 12.10} cannot silently become 12.1).
   */
  record Str(Pattern pattern, String what, int maxLength, boolean scalarText) implements Shape {
    public Str {
      Objects.requireNonNull(pattern);
      Objects.requireNonNull(what);
    }

    @Override
    public String describe() {
      return what;
    }
  }

  /** One of a fixed list of words. */
  record Enum(List<String> values) implements Shape {
    public Enum {
      values = List.copyOf(values);
    }

    @Override
    public String describe() {
      return "one of " + String.join(", ", values);
    }
  }

  /** A whole number in a closed range. */
  record Int(long min, long max) implements Shape {
    @Override
    public String describe() {
      return "an integer from " + min + " to " + max;
    }
  }

  /** A number in a closed range. */
  record Num(double min, double max) implements Shape {
    @Override
    public String describe() {
      return "a number from " + fmt(min) + " to " + fmt(max);
    }

    private static String fmt(double d) {
      return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
  }

  /** true or false. */
  record Bool() implements Shape {
    @Override
    public String describe() {
      return "true or false";
    }
  }

  /** A sequence. */
  record ListOf(Shape item, int minItems, int maxItems) implements Shape {
    @Override
    public String describe() {
      return "a list";
    }
  }

  /** A mapping from user-chosen keys to values of one shape; bound as a sorted map. */
  record MapOf(Str key, Shape value, int maxEntries) implements Shape {
    @Override
    public String describe() {
      return "a mapping";
    }
  }
}
