package dev.gpugen.render;

import dev.gpugen.spec.yaml.Shape;
import dev.gpugen.spec.yaml.Shape.Bool;
import dev.gpugen.spec.yaml.Shape.Field;
import dev.gpugen.spec.yaml.Shape.Int;
import dev.gpugen.spec.yaml.Shape.ListOf;
import dev.gpugen.spec.yaml.Shape.MapOf;
import dev.gpugen.spec.yaml.Shape.Num;
import dev.gpugen.spec.yaml.Shape.Obj;
import dev.gpugen.spec.yaml.Shape.Str;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Terraform types and validation conditions of spec values, derived from the grammar's shapes
 * ({@code spec/yaml/SpecShape}), so a bound, a pattern or an enum is written once: a string pattern
 * becomes {@code can(regex(...))}, an integer range a comparison, an enum {@code contains(...)}, a
 * key that may be absent {@code optional(...)} with the grammar's default.
 */
final class TfShape {
  private TfShape() {}

  /**
   * One attribute of a Terraform object type.
   *
   * @param name the attribute's name
   * @param type its type constraint (lines after the first indented for their depth)
   * @param optional empty for a required attribute; else {@code optional(...)}'s second argument,
   *     an HCL literal, or "" for an optional attribute without a default (null when absent)
   * @param checks what each valid value satisfies
   */
  record Attr(String name, String type, Optional<String> optional, List<Check> checks) {
    Attr {
      checks = List.copyOf(checks);
    }

    /** With one more check on the attribute's value, made only when the value is not null. */
    Attr check(String condition, String what) {
      List<Check> out = new ArrayList<>(checks);
      Check c = new Check("", condition, what);
      out.add(nullable() ? orNull(c) : c);
      return new Attr(name, type, optional, out);
    }

    /** Whether the value may be null: an optional attribute without a default. */
    boolean nullable() {
      return optional.map(String::isEmpty).orElse(false);
    }

    /** The {@code name = type} line(s) of an object type, at {@code indent}. */
    String line(String indent) {
      String t =
          optional.map(d -> "optional(" + type + (d.isEmpty() ? "" : ", " + d) + ")").orElse(type);
      return indent + name + " = " + t.replace("\n", "\n" + indent);
    }
  }

  /**
   * A condition on one value, where {@code {x}} stands for the value's expression and {@code
   * {attr}} for the attribute's (the same, but for a check below an attribute).
   *
   * @param path where below the attribute the value is ("" for the attribute itself, else {@code
   *     .child})
   * @param condition HCL, true for a valid value; never evaluated on null (callers guard)
   * @param what a valid value, for the error message ("one of gp3, gp2, io1, io2")
   */
  record Check(String path, String condition, String what) {}

  /**
   * An attribute for a grammar key: its shape's type, and unless required optional with the
   * grammar's default. A key without a default that stands for a collection defaults to an empty
   * one, as does a mapping whose keys all have defaults; any other is null when absent, and its
   * checks are made only when it is not.
   */
  static Attr attr(String name, Field f) {
    return attr(name, f, f.required());
  }

  /**
   * As {@link #attr(String, Field)}, required where this target needs what the grammar may omit.
   */
  static Attr required(String name, Field f) {
    return attr(name, f, true);
  }

  private static Attr attr(String name, Field f, boolean required) {
    Shape s = f.shape();
    Optional<String> optional = Optional.empty();
    if (!required) {
      Object d = f.defaultValue();
      if (d != null) {
        optional = Optional.of(literal(d));
      } else if (s instanceof MapOf
          || s instanceof Obj o && o.fields().stream().noneMatch(Field::required)) {
        optional = Optional.of("{}");
      } else if (s instanceof ListOf) {
        optional = Optional.of("[]");
      } else {
        optional = Optional.of("");
      }
    }
    List<Check> checks = new ArrayList<>();
    for (Check c : checks(s, "")) {
      checks.add(
          optional.map(String::isEmpty).orElse(false)
              ? new Check(
                  c.path(), "{attr} == null ? true : " + parenthesised(c.condition()), c.what())
              : c);
    }
    return new Attr(name, type(s), optional, checks);
  }

  /**
   * A variable for a grammar key: the key's type, the grammar's default (for an optional key
   * without one: null, or an empty collection) and one validation block per check of its shape.
   * Checks the grammar cannot state (one value against another, a network address without host
   * bits) are added by hand.
   */
  static TfVar variable(String name, Field f, String description) {
    return variable(name, f, f.required(), description);
  }

  /**
   * As {@link #variable(String, Field, String)}; {@code required} says whether Terraform needs a
   * value where the grammar may omit the key (a cloud's region), or may do without one where the
   * grammar needs it (a key of a mapping the spec may leave out: then null, and unchecked).
   */
  static TfVar variable(String name, Field f, boolean required, String description) {
    Attr a = attr(name, f, required);
    TfVar v =
        new TfVar(
            name,
            a.type(),
            description,
            a.optional().map(d -> d.isEmpty() ? "null" : d),
            List.of(),
            view -> Optional.empty());
    for (Check c : a.checks()) {
      v =
          v.validation(
              c.condition().replace("{attr}", "{var}").replace("{x}", "{var}" + c.path()),
              "The " + name + c.path() + " must be " + c.what() + ".");
    }
    return v;
  }

  /** An attribute that is no grammar key (a fact of the plan): its type and checks by hand. */
  static Attr attr(String name, String type, boolean required) {
    return new Attr(name, type, required ? Optional.empty() : Optional.of(""), List.of());
  }

  /** An optional attribute that is no grammar key, with a default (an HCL literal). */
  static Attr attr(String name, String type, String defaultLiteral) {
    return new Attr(name, type, Optional.of(defaultLiteral), List.of());
  }

  /** The Terraform type of a shape; an object spans lines, its attributes indented by two. */
  static String type(Shape s) {
    if (s instanceof Str || s instanceof Shape.Enum) {
      return "string";
    } else if (s instanceof Int || s instanceof Num) {
      return "number";
    } else if (s instanceof Bool) {
      return "bool";
    } else if (s instanceof ListOf l) {
      return "list(" + type(l.item()) + ")";
    } else if (s instanceof MapOf m) {
      return "map(" + type(m.value()) + ")";
    }
    return object(fields((Obj) s));
  }

  /** {@code object({...})} of these attributes, one per line. */
  static String object(List<Attr> attrs) {
    List<String> lines = new ArrayList<>();
    for (Attr a : attrs) {
      lines.add(a.line("  "));
    }
    return "object({\n" + String.join("\n", TfVar.align(lines)) + "\n})";
  }

  /** The attributes of a mapping, named like its keys in snake_case. */
  static List<Attr> fields(Obj o) {
    List<Attr> out = new ArrayList<>();
    for (Field f : o.fields()) {
      out.add(attr(snake(f.key()), f));
    }
    return out;
  }

  /** sizeGiB → size_gib, instanceType → instance_type. */
  static String snake(String key) {
    return key.replace("GiB", "Gib").replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase();
  }

  /**
   * What a valid value of {@code s} satisfies. An object's keys each get their own checks (at
   * {@code .key}); a key that may be absent is checked only when present.
   */
  static List<Check> checks(Shape s, String path) {
    List<Check> out = new ArrayList<>();
    if (s instanceof Obj o) {
      for (Field f : o.fields()) {
        String child = path + "." + snake(f.key());
        boolean nullable = !f.required() && f.defaultValue() == null;
        for (Check c : checks(f.shape(), child)) {
          out.add(nullable && c.path().equals(child) ? orNull(c) : c);
        }
      }
      return out;
    }
    condition(s).ifPresent(c -> out.add(new Check(path, c, describe(s))));
    return out;
  }

  static Check orNull(Check c) {
    return new Check(c.path(), "{x} == null ? true : " + parenthesised(c.condition()), c.what());
  }

  /** The condition on one value of a scalar, list or map shape; empty when every value is valid. */
  static Optional<String> condition(Shape s) {
    if (s instanceof Str x) {
      return Optional.of(string(x));
    } else if (s instanceof Shape.Enum e) {
      return Optional.of(
          "contains(["
              + e.values().stream().map(Escape::hcl).collect(Collectors.joining(", "))
              + "], {x})");
    } else if (s instanceof Int i) {
      return Optional.of("{x} >= " + i.min() + " && {x} <= " + i.max() + " && floor({x}) == {x}");
    } else if (s instanceof Num n) {
      return Optional.of("{x} >= " + number(n.min()) + " && {x} <= " + number(n.max()));
    } else if (s instanceof Bool) {
      return Optional.empty();
    } else if (s instanceof ListOf l) {
      List<String> parts = new ArrayList<>();
      parts.add("length({x}) <= " + l.maxItems());
      if (l.minItems() > 0) {
        parts.add("length({x}) >= " + l.minItems());
      }
      item(l.item(), "i").ifPresent(c -> parts.add("alltrue([for i in {x} : " + c + "])"));
      return Optional.of(String.join(" && ", parts));
    } else if (s instanceof MapOf m) {
      String each = string(m.key()).replace("{x}", "k");
      Optional<String> value = condition(m.value()).map(c -> c.replace("{x}", "v"));
      return Optional.of(
          "length({x}) <= "
              + m.maxEntries()
              + " && alltrue([for k, v in {x} : "
              + each
              + value.map(v -> " && " + v).orElse("")
              + "])");
    }
    throw new IllegalArgumentException("an object is checked key by key");
  }

  /**
   * The condition on one list item named {@code name}: every key of an object item, or the item.
   */
  private static Optional<String> item(Shape s, String name) {
    if (!(s instanceof Obj o)) {
      return condition(s).map(c -> c.replace("{x}", name));
    }
    List<String> parts = new ArrayList<>();
    for (Check c : checks(o, "")) {
      parts.add(parenthesised(c.condition().replace("{x}", name + c.path())));
    }
    return parts.isEmpty() ? Optional.empty() : Optional.of(String.join(" && ", parts));
  }

  /**
   * A pattern as RE2, which Terraform's regex() speaks: a leading negative lookahead (the grammar's
   * "not a reserved name") becomes a second regex() that must not match.
   */
  static String string(Str s) {
    String p = s.pattern().pattern();
    String not = null;
    if (p.startsWith("^(?!")) {
      int close = closing(p, 1);
      not = "^" + p.substring(4, close);
      p = "^" + p.substring(close + 1);
    }
    if (p.contains("(?")) {
      throw new IllegalArgumentException("not an RE2 pattern: " + p);
    }
    String c = "can(regex(" + Escape.hcl(p) + ", {x}))";
    if (not != null) {
      c += " && !can(regex(" + Escape.hcl(not) + ", {x}))";
    }
    if (p.contains("*") || p.contains("+")) {
      c += " && length({x}) <= " + s.maxLength();
    }
    return c;
  }

  private static int closing(String p, int open) {
    int depth = 0;
    for (int i = open; i < p.length(); i++) {
      if (p.charAt(i) == '\\') {
        i++;
      } else if (p.charAt(i) == '(') {
        depth++;
      } else if (p.charAt(i) == ')' && --depth == 0) {
        return i;
      }
    }
    throw new IllegalArgumentException("unbalanced pattern: " + p);
  }

  private static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  private static String parenthesised(String c) {
    return c.contains(" && ") || c.contains(" ? ") ? "(" + c + ")" : c;
  }

  /** What a valid value is, for error messages. */
  static String describe(Shape s) {
    if (s instanceof ListOf l) {
      return "a list of at most "
          + l.maxItems()
          + (l.item() instanceof Obj o
              ? " objects with "
                  + o.fields().stream()
                      .map(f -> snake(f.key()) + " " + describe(f.shape()))
                      .collect(Collectors.joining(", "))
              : " of " + describe(l.item()));
    } else if (s instanceof MapOf m) {
      return "a map of at most "
          + m.maxEntries()
          + " entries from "
          + describe(m.key())
          + " to "
          + describe(m.value());
    }
    return s.describe();
  }

  /** An HCL literal of a grammar default: a string, a whole number or a boolean. */
  static String literal(Object v) {
    if (v instanceof Long l) {
      return l.toString();
    }
    return TfVar.literal(v);
  }
}
