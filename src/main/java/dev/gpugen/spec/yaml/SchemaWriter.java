package dev.gpugen.spec.yaml;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** The v1 grammar as JSON Schema (for editors) and as the Markdown table in docs/spec.md. */
public final class SchemaWriter {
  private static final ObjectMapper JSON = new ObjectMapper();

  private SchemaWriter() {}

  public static ObjectNode jsonSchema() {
    // The dialect and identity first, as readers of a schema file expect them.
    ObjectNode root = JSON.createObjectNode();
    root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
    root.put("$id", "https://gpugen.dev/schema/gpugen-v1.json");
    root.put("title", "gpugen cluster spec (gpugen/v1)");
    root.setAll(node(SpecShape.root()));
    return root;
  }

  private static ObjectNode node(Shape shape) {
    ObjectNode n = JSON.createObjectNode();
    if (shape instanceof Shape.Obj obj) {
      n.put("type", "object");
      n.put("additionalProperties", false);
      ObjectNode props = n.putObject("properties");
      ArrayNode required = JSON.createArrayNode();
      for (Shape.Field f : obj.fields()) {
        ObjectNode p = node(f.shape());
        p.put("description", f.doc());
        if (f.defaultValue() != null) {
          p.set("default", JSON.valueToTree(f.defaultValue()));
        }
        props.set(f.key(), p);
        if (f.required()) {
          required.add(f.key());
        }
      }
      if (!required.isEmpty()) {
        n.set("required", required);
      }
    } else if (shape instanceof Shape.MapOf map) {
      n.put("type", "object");
      n.put("maxProperties", map.maxEntries());
      n.set("propertyNames", node(map.key()));
      n.set("additionalProperties", node(map.value()));
    } else if (shape instanceof Shape.ListOf list) {
      n.put("type", "array");
      n.put("minItems", list.minItems());
      n.put("maxItems", list.maxItems());
      n.set("items", node(list.item()));
    } else if (shape instanceof Shape.Str str) {
      if (str.scalarText()) {
        ArrayNode types = n.putArray("type");
        types.add("string").add("number").add("boolean");
      } else {
        n.put("type", "string");
      }
      n.put("pattern", str.pattern().pattern());
      n.put("maxLength", str.maxLength());
    } else if (shape instanceof Shape.Enum e) {
      n.put("type", "string");
      ArrayNode values = n.putArray("enum");
      e.values().forEach(values::add);
    } else if (shape instanceof Shape.Int i) {
      n.put("type", "integer");
      n.put("minimum", i.min());
      n.put("maximum", i.max());
    } else if (shape instanceof Shape.Num num) {
      n.put("type", "number");
      n.put("minimum", num.min());
      n.put("maximum", num.max());
    } else if (shape instanceof Shape.Bool) {
      n.put("type", "boolean");
    }
    return n;
  }

  /** One row per key: key path, type, default, meaning. */
  public static String markdown() {
    List<String> rows = new ArrayList<>();
    rows.add("| key | type | default | meaning |");
    rows.add("|---|---|---|---|");
    walk(SpecShape.root(), "", rows);
    return String.join("\n", rows) + "\n";
  }

  private static void walk(Shape.Obj obj, String prefix, List<String> rows) {
    for (Shape.Field f : obj.fields()) {
      String key = prefix + f.key();
      String def =
          f.defaultValue() != null ? "`" + f.defaultValue() + "`" : f.required() ? "required" : "—";
      rows.add(
          "| `"
              + key
              + "` | "
              + type(f.shape())
              + " | "
              + def
              + " | "
              + f.doc().replace("|", "\\|")
              + " |");
      if (f.shape() instanceof Shape.Obj inner) {
        walk(inner, key + ".", rows);
      } else if (f.shape() instanceof Shape.ListOf l && l.item() instanceof Shape.Obj inner) {
        walk(inner, key + "[].", rows);
      } else if (f.shape() instanceof Shape.MapOf m && m.value() instanceof Shape.Obj inner) {
        walk(inner, key + ".<name>.", rows);
      }
    }
  }

  private static String type(Shape s) {
    if (s instanceof Shape.Obj) {
      return "mapping";
    } else if (s instanceof Shape.MapOf m) {
      return "map of " + type(m.value());
    } else if (s instanceof Shape.ListOf l) {
      return "list of " + type(l.item());
    } else if (s instanceof Shape.Enum e) {
      return String.join(" \\| ", e.values());
    } else if (s instanceof Shape.Int i) {
      return "integer " + i.min() + "–" + i.max();
    } else if (s instanceof Shape.Num) {
      return "number";
    } else if (s instanceof Shape.Bool) {
      return "boolean";
    } else if (s instanceof Shape.Str str) {
      return "string: " + str.what().replace("|", "\\|");
    }
    return "string";
  }
}
