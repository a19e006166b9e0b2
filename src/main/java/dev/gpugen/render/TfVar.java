package dev.gpugen.render;

import dev.gpugen.render.GeneratedOutputFormat.Markup;
import dev.gpugen.spec.Keyword;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One Terraform input variable, defined once: its {@code variable} block and its entry in
 * terraform.tfvars.json are both produced from this record, so no hand-written block has to match a
 * map key. Adding a variable is adding one {@code TfVar} in {@link TerraformVariables}.
 *
 * @param name the variable's identifier
 * @param type the HCL type constraint, e.g. {@code string} or {@code list(string)}
 * @param description what the variable means, as plain text
 * @param defaultValue the default as an HCL literal; empty for a required variable
 * @param validations the checks Terraform runs at plan time, in order
 * @param value what gpugen writes into terraform.tfvars.json; empty when gpugen leaves it to the
 *     default (or to the user's own override file)
 */
public record TfVar(
    String name,
    String type,
    String description,
    Optional<String> defaultValue,
    List<Validation> validations,
    Optional<Value> value) {

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
    return new TfVar(name, type, description, Optional.empty(), List.of(), Optional.empty());
  }

  /**
   * With a default: {@code null}, a string, a number, a boolean, or an empty list or map, written
   * as the HCL literal.
   */
  TfVar defaultTo(Object value) {
    return new TfVar(name, type, description, Optional.of(literal(value)), validations, this.value);
  }

  /**
   * With one more validation block. {@code condition} is HCL source in which {@code {var}} stands
   * for {@code var.NAME}.
   */
  TfVar validation(String condition, String errorMessage) {
    List<Validation> v = new ArrayList<>(validations);
    v.add(new Validation(condition.replace("{var}", "var." + name), errorMessage));
    return new TfVar(name, type, description, defaultValue, v, value);
  }

  /** With the value gpugen writes into terraform.tfvars.json ({@code null}: JSON null). */
  TfVar set(Object json) {
    // A spec word as the spec writes it (Jackson would write the Java constant's name).
    Object value = json instanceof Keyword k ? k.spelling() : json;
    return new TfVar(
        name, type, description, defaultValue, validations, Optional.of(new Value(value)));
  }

  /** {@link #hcl()} for templates: already HCL, so written as it is. */
  public Markup block() {
    return GeneratedOutputFormat.markup(hcl());
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
