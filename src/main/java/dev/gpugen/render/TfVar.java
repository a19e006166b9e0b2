package dev.gpugen.render;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Keyword;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * One Terraform input variable, defined once: its {@code variable} block (the same for every spec)
 * and its entry in terraform.tfvars.json (the spec's value, from the plan) are both produced from
 * this record, so no hand-written block has to match a map key. Adding a variable is adding one
 * {@code TfVar} in {@link TerraformVariables}.
 *
 * @param name the variable's identifier
 * @param type the HCL type constraint, e.g. {@code string} or {@code list(string)}
 * @param description what the variable means, as plain text
 * @param defaultValue the default as an HCL literal; empty for a required variable
 * @param validations the checks Terraform runs at plan time, in order
 * @param source what gpugen writes into terraform.tfvars.json for a render (its plan, and the files
 *     the renderer lists); empty when gpugen leaves it to the default or to the user's own override
 *     file
 */
public record TfVar(
    String name,
    String type,
    String description,
    Optional<String> defaultValue,
    List<Validation> validations,
    Function<TerraformView, Optional<Value>> source) {

  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** A validation block: an HCL condition over {@code var.NAME} and its error message (text). */
  public record Validation(String condition, String errorMessage) {}

  /** A value for terraform.tfvars.json: JSON data, {@code null} where the spec leaves it unset. */
  public record Value(Object json) {}

  /** A group of variables under one banner comment; an empty title prints no banner. */
  public record Section(String title, List<TfVar> variables) {
    public Section {
      variables = List.copyOf(variables);
    }
  }

  public TfVar {
    if (!IDENTIFIER.matcher(name).matches()) {
      throw new IllegalArgumentException("not a Terraform identifier: " + Escape.hcl(name));
    }
    validations = List.copyOf(validations);
  }

  /** A required variable gpugen does not set (yet): add a default, validations and a value. */
  static TfVar of(String name, String type, String description) {
    return new TfVar(name, type, description, Optional.empty(), List.of(), p -> Optional.empty());
  }

  /**
   * With a default: {@code null}, a string, a number, a boolean, or an empty list or map, written
   * as the HCL literal.
   */
  TfVar defaultTo(Object value) {
    return new TfVar(name, type, description, Optional.of(literal(value)), validations, source);
  }

  /**
   * With one more validation block. {@code condition} is HCL source in which {@code {var}} stands
   * for {@code var.NAME}.
   */
  TfVar validation(String condition, String errorMessage) {
    List<Validation> v = new ArrayList<>(validations);
    v.add(new Validation(condition.replace("{var}", "var." + name), errorMessage));
    return new TfVar(name, type, description, defaultValue, v, source);
  }

  /**
   * With the value gpugen writes into terraform.tfvars.json for a plan ({@code null}: JSON null).
   */
  TfVar set(Function<ClusterPlan, Object> json) {
    return setIf(p -> true, json);
  }

  /** With a value for the plans {@code when} accepts; the others leave it to the default. */
  TfVar setIf(Predicate<ClusterPlan> when, Function<ClusterPlan, Object> json) {
    return setFromRender(when, v -> json.apply(v.plan()));
  }

  /**
   * With a value that is no fact of the plan but of the render (the files the renderer wrote), for
   * the plans {@code when} accepts.
   */
  TfVar setFromRender(Predicate<ClusterPlan> when, Function<TerraformView, Object> json) {
    return new TfVar(
        name,
        type,
        description,
        defaultValue,
        validations,
        v ->
            when.test(v.plan())
                ? Optional.of(new Value(spelling(json.apply(v))))
                : Optional.empty());
  }

  /** What gpugen writes for this variable in a render; empty to leave it to the default. */
  Optional<Value> value(TerraformView view) {
    return source.apply(view);
  }

  /** A spec word as the spec writes it (Jackson would write the Java constant's name). */
  private static Object spelling(Object json) {
    return json instanceof Keyword k ? k.spelling() : json;
  }

  /** The {@code variable} block, formatted as {@code terraform fmt} formats it. */
  public String hcl() {
    StringBuilder b = new StringBuilder();
    b.append("variable ").append(Escape.hcl(name)).append(" {\n");
    List<String[]> head = new ArrayList<>();
    head.add(new String[] {"description", Escape.hcl(description)});
    head.add(new String[] {"type", type});
    defaultValue.ifPresent(d -> head.add(new String[] {"default", d}));
    attributes(b, "  ", head);
    for (Validation v : validations) {
      b.append("\n  validation {\n");
      attributes(
          b,
          "    ",
          List.of(
              new String[] {"condition", v.condition()},
              new String[] {"error_message", Escape.hcl(v.errorMessage())}));
      b.append("  }\n");
    }
    return b.append('}').toString();
  }

  /**
   * Attributes with their '=' aligned one space after the longest name of each run of one-line
   * attributes; a value spanning lines stands alone, as {@code terraform fmt} leaves it.
   */
  private static void attributes(StringBuilder b, String indent, List<String[]> attrs) {
    int i = 0;
    while (i < attrs.size()) {
      if (attrs.get(i)[1].contains("\n")) {
        b.append(indent).append(attrs.get(i)[0]).append(" = ").append(attrs.get(i)[1]);
        b.append('\n');
        i++;
        continue;
      }
      int end = i;
      int width = 0;
      while (end < attrs.size() && !attrs.get(end)[1].contains("\n")) {
        width = Math.max(width, attrs.get(end)[0].length());
        end++;
      }
      for (; i < end; i++) {
        String key = attrs.get(i)[0];
        b.append(indent).append(key).append(" ".repeat(width - key.length()));
        b.append(" = ").append(attrs.get(i)[1]).append('\n');
      }
    }
  }

  /**
   * Lines of {@code name = value} attributes with the '=' of each run of one-line attributes
   * aligned one space after the longest name, as {@code terraform fmt} aligns them; an attribute
   * spanning lines (its later lines further indented) ends a run and keeps a single space.
   */
  static List<String> align(List<String> lines) {
    List<String> out = new ArrayList<>();
    int i = 0;
    while (i < lines.size()) {
      int end = i;
      int width = 0;
      while (end < lines.size() && !lines.get(end).contains("\n")) {
        width = Math.max(width, lines.get(end).indexOf(" = "));
        end++;
      }
      for (; i < end; i++) {
        String l = lines.get(i);
        int eq = l.indexOf(" = ");
        out.add(l.substring(0, eq) + " ".repeat(width - eq) + l.substring(eq));
      }
      if (i < lines.size()) {
        out.add(lines.get(i));
        i++;
      }
    }
    return out;
  }

  /** An HCL literal of a default: only the shapes a variable default takes here. */
  static String literal(Object v) {
    if (v == null) {
      return "null";
    } else if (v instanceof String s) {
      return Escape.hcl(s);
    } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long) {
      return v.toString();
    } else if (v instanceof List<?> l && l.isEmpty()) {
      return "[]";
    } else if (v instanceof Map<?, ?> m && m.isEmpty()) {
      return "{}";
    }
    throw new IllegalArgumentException("no HCL literal for a default of " + v);
  }
}
