package dev.gpugen.spec.yaml;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The spec's grammar, declared once. The binder checks YAML against it (with positions), {@code
 * gpugen schema} prints it as JSON Schema, and docs/spec.md is generated from it, so the three can
 * never disagree.
 */
public sealed interface Shape {

  /** How the shape is named in messages: "a string", "an integer from 1 to 8". */
  String describe();

  /**
   * A mapping with a fixed set of keys; unknown keys are errors.
   *
   * @param binding the record this mapping binds into; null for a mapping whose keys bind into the
   *     enclosing record's components (ncclAllReduce's keys are components of Validation)
   * @param moved keys this mapping no longer has → the path they moved to, so an old spec gets the
   *     new place instead of a guess at a typo
   */
  record Obj(List<Field> fields, Binding binding, java.util.Map<String, String> moved)
      implements Shape {
    public Obj {
      fields = List.copyOf(fields);
      moved = java.util.Map.copyOf(moved);
    }

    public Obj(List<Field> fields, Binding binding) {
      this(fields, binding, java.util.Map.of());
    }

    public Obj(List<Field> fields) {
      this(fields, null);
    }

    /** This mapping, telling a spec that still writes {@code key} that it moved to {@code to}. */
    public Obj moving(String key, String to) {
      java.util.Map<String, String> m = new java.util.TreeMap<>(moved);
      m.put(key, to);
      return new Obj(fields, binding, m);
    }

    public Optional<Field> field(String key) {
      return fields.stream().filter(f -> f.key().equals(key)).findFirst();
    }

    /** The same keys and record, none required and none defaulted: for overrides and overlays. */
    public Obj allOptional() {
      List<Field> out = new ArrayList<>();
      for (Field f : fields) {
        Shape s = f.shape() instanceof Obj o ? o.allOptional() : f.shape();
        out.add(new Field(f.key(), s, false, null, f.doc(), f.component(), f.resolve()));
      }
      return new Obj(out, binding, moved);
    }

    /** This mapping bound into {@code type}, with the components no key names computed. */
    public Obj into(Class<? extends Record> type, Derived... derived) {
      return new Obj(fields, new Binding(type, List.of(derived)), moved);
    }

    @Override
    public String describe() {
      return "a mapping";
    }
  }

  /** The record a mapping binds into, and its components that no key names. */
  record Binding(Class<? extends Record> type, List<Derived> derived) {
    public Binding {
      Objects.requireNonNull(type);
      derived = List.copyOf(derived);
    }
  }

  /**
   * A record component that is no key of the mapping: computed from the bound values (a pool's
   * fabric from its instance type, the names of the environments), in the record's own type.
   */
  record Derived(String component, Function<Scope, Object> value) {
    public Derived {
      Objects.requireNonNull(component);
      Objects.requireNonNull(value);
    }
  }

  /**
   * A default that depends on other values, or a value another one decides (a static pool's count
   * is its number of hosts): given the scope and the bound value (null when the key is absent), the
   * value to bind in the binder's form (String, Long, Double, Boolean, List, Map), or null.
   */
  @FunctionalInterface
  interface Resolve {
    Object apply(Scope scope, Object bound);
  }

  /**
   * One key of an {@link Obj}.
   *
   * @param defaultValue filled in by the binder when the key is absent; null for none
   * @param component the record component the key binds into: null for the one named like the key,
   *     "" for a key that is no component of this mapping's record (a {@link Derived} one reads it)
   * @param resolve a default that depends on other values; null for none
   */
  record Field(
      String key,
      Shape shape,
      boolean required,
      Object defaultValue,
      String doc,
      String component,
      Resolve resolve) {
    public Field {
      Objects.requireNonNull(key);
      Objects.requireNonNull(shape);
      Objects.requireNonNull(doc);
    }

    public Field(String key, Shape shape, boolean required, Object defaultValue, String doc) {
      this(key, shape, required, defaultValue, doc, null, null);
    }

    /** The record component this key binds into, or "" for none. */
    public String componentName() {
      return component == null ? key : component;
    }

    /** This key bound into the component {@code name} ("" for none of this record's). */
    public Field as(String name) {
      return new Field(key, shape, required, defaultValue, doc, name, resolve);
    }

    /** This key with a default (or a value) that depends on other values. */
    public Field resolvedBy(Resolve r) {
      return new Field(key, shape, required, defaultValue, doc, component, r);
    }
  }

  /**
   * A string matching {@code pattern}. With {@code scalarText}, plain numbers and booleans are
   * taken as their source text (sysctl values, label values), otherwise they are a type error (so
   * {@code cuda: 12.10} cannot silently become 12.1).
   */
  record Str(Pattern pattern, String what, int maxLength, boolean scalarText, Reserved reserved)
      implements Shape {
    public Str {
      Objects.requireNonNull(pattern);
      Objects.requireNonNull(what);
      Objects.requireNonNull(reserved);
    }

    Str(Pattern pattern, String what, int maxLength, boolean scalarText) {
      this(pattern, what, maxLength, scalarText, value -> java.util.Optional.empty());
    }

    /** This shape, also refusing the values {@code reserved} names though the pattern fits. */
    Str reserving(Reserved reserved) {
      return new Str(pattern, what, maxLength, scalarText, reserved);
    }

    @Override
    public String describe() {
      return what;
    }
  }

  /**
   * Values of the right form that gpugen keeps for itself (the host name localhost, a role's
   * variable as a host variable): why this one is refused and what to write instead, or empty.
   */
  @FunctionalInterface
  interface Reserved {
    java.util.Optional<Refusal> why(String value);
  }

  /** Why a reserved value is refused, and the hint that says what to write instead. */
  record Refusal(String why, String fix) {}

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
