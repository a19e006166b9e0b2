package dev.gpugen.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The names hashicorp/aws accepts (src/test/resources/terraform-schemas, see its README), and a
 * walk over hcl2json output that reports every resource type, data source, argument or nested block
 * the provider does not have, and every block written as an argument or the other way round.
 */
final class ProviderSchema {
  static final Path DIR = Path.of("src/test/resources/terraform-schemas");

  /** Terraform's own meta-arguments and blocks, valid in every resource or data block. */
  private static final Set<String> RESOURCE_META =
      Set.of("count", "for_each", "depends_on", "provider", "lifecycle", "dynamic");

  private static final Set<String> LIFECYCLE =
      Set.of(
          "create_before_destroy",
          "prevent_destroy",
          "ignore_changes",
          "replace_triggered_by",
          "precondition",
          "postcondition");

  private static final Set<String> CONDITION = Set.of("condition", "error_message");

  private final JsonNode resources;
  private final JsonNode dataSources;
  private final JsonNode provider;

  private final String name;
  private final Set<String> providers;

  private ProviderSchema(JsonNode resources, JsonNode dataSources, JsonNode provider) {
    this(resources, dataSources, provider, "hashicorp/aws", Set.of("aws"));
  }

  private ProviderSchema(
      JsonNode resources,
      JsonNode dataSources,
      JsonNode provider,
      String name,
      Set<String> providers) {
    this.resources = resources;
    this.dataSources = dataSources;
    this.provider = provider;
    this.name = name;
    this.providers = providers;
  }

  /**
   * hashicorp/google, hashicorp/helm and hashicorp/kubernetes together (resource type names do not
   * overlap: each starts with its provider's name), and Terraform's built-in terraform_data. Their
   * provider blocks are not in the files, so only their names are checked.
   */
  static ProviderSchema gke() {
    try {
      ObjectMapper m = new ObjectMapper();
      ObjectNode resources = m.createObjectNode();
      ObjectNode data = m.createObjectNode();
      for (String p :
          List.of("google", "google_supplement", "helm", "kubernetes", "terraform_builtin")) {
        String file =
            p.endsWith("_supplement")
                ? p.replace("_supplement", "_provider_schema_supplement.json")
                : p.equals("terraform_builtin")
                    ? "terraform_builtin_schema.json"
                    : p + "_provider_schema.json";
        JsonNode schema = m.readTree(DIR.resolve(file).toFile());
        schema.get("resource").properties().forEach(e -> resources.set(e.getKey(), e.getValue()));
        schema.get("data").properties().forEach(e -> data.set(e.getKey(), e.getValue()));
      }
      return new ProviderSchema(
          resources,
          data,
          null,
          "hashicorp/google, helm or kubernetes",
          Set.of("google", "helm", "kubernetes", "terraform"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ProviderSchema aws() {
    try {
      ObjectMapper m = new ObjectMapper();
      ObjectNode main = (ObjectNode) m.readTree(DIR.resolve("aws_provider_schema.json").toFile());
      JsonNode extra = m.readTree(DIR.resolve("aws_provider_schema_supplement.json").toFile());
      ObjectNode resources = ((ObjectNode) main.get("resource")).deepCopy();
      extra.get("resource").properties().forEach(e -> resources.set(e.getKey(), e.getValue()));
      return new ProviderSchema(resources, main.get("data"), extra.get("provider"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  boolean hasResource(String type) {
    return resources.has(type);
  }

  boolean hasDataSource(String type) {
    return dataSources.has(type);
  }

  /**
   * Every problem in one parsed file: unknown types and names, blocks used as arguments and
   * arguments used as blocks. Locations read like {@code aws_instance.h100.root_block_device}.
   */
  List<String> check(String file, JsonNode body) {
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, JsonNode> r : fields(body.path("resource"))) {
      String type = r.getKey();
      if (type.equals("terraform_data")) {
        // Terraform's own built-in resource (terraform.io/builtin/terraform), in no provider's
        // schema; terraform validate and the plans check its arguments.
        continue;
      }
      if (!resources.has(type)) {
        problems.add(file + ": resource type " + type + " does not exist in " + name);
        continue;
      }
      for (Map.Entry<String, JsonNode> named : fields(r.getValue())) {
        for (JsonNode block : named.getValue()) {
          walk(file, type + "." + named.getKey(), block, resources.get(type), true, problems);
        }
      }
    }
    for (Map.Entry<String, JsonNode> d : fields(body.path("data"))) {
      String type = d.getKey();
      if (!dataSources.has(type)) {
        problems.add(file + ": data source " + type + " does not exist in " + name);
        continue;
      }
      for (Map.Entry<String, JsonNode> named : fields(d.getValue())) {
        for (JsonNode block : named.getValue()) {
          walk(
              file,
              "data." + type + "." + named.getKey(),
              block,
              dataSources.get(type),
              true,
              problems);
        }
      }
    }
    for (Map.Entry<String, JsonNode> p : fields(body.path("provider"))) {
      if (!providers.contains(p.getKey())) {
        problems.add(file + ": provider " + p.getKey() + " is not " + name);
        continue;
      }
      if (provider == null) {
        continue;
      }
      for (JsonNode block : p.getValue()) {
        walk(file, "provider." + p.getKey(), block, provider, false, problems);
      }
    }
    return problems;
  }

  private void walk(
      String file,
      String where,
      JsonNode body,
      JsonNode schema,
      boolean topLevel,
      List<String> problems) {
    if (!body.isObject()) {
      problems.add(file + ": " + where + " is not a block");
      return;
    }
    for (Map.Entry<String, JsonNode> f : fields(body)) {
      String name = f.getKey();
      JsonNode value = f.getValue();
      String at = where + "." + name;
      if (topLevel && name.equals("lifecycle")) {
        for (JsonNode lc : value) {
          for (Map.Entry<String, JsonNode> l : fields(lc)) {
            if (!LIFECYCLE.contains(l.getKey())) {
              problems.add(file + ": " + at + "." + l.getKey() + " is not a lifecycle argument");
            } else if (l.getKey().endsWith("condition")) {
              for (JsonNode c : l.getValue()) {
                fields(c).stream()
                    .map(Map.Entry::getKey)
                    .filter(k -> !CONDITION.contains(k))
                    .forEach(k -> problems.add(file + ": " + at + " has " + k));
              }
            }
          }
        }
        continue;
      }
      if (name.equals("dynamic")) {
        for (Map.Entry<String, JsonNode> dyn : fields(value)) {
          JsonNode child = schema.get(dyn.getKey());
          if (child == null || !child.isObject()) {
            problems.add(
                file + ": " + where + ": dynamic \"" + dyn.getKey() + "\" is not a nested block");
            continue;
          }
          for (JsonNode d : dyn.getValue()) {
            for (JsonNode content : d.path("content")) {
              walk(file, where + "." + dyn.getKey(), content, child, false, problems);
            }
          }
        }
        continue;
      }
      if (topLevel && RESOURCE_META.contains(name)) {
        continue;
      }
      if (!schema.has(name)) {
        problems.add(file + ": " + at + " does not exist in " + this.name);
        continue;
      }
      JsonNode child = schema.get(name);
      if (child.isObject()) {
        if (!value.isArray()) {
          problems.add(file + ": " + at + " is a nested block, written as an argument");
          continue;
        }
        for (JsonNode block : value) {
          walk(file, at, block, child, false, problems);
        }
      } else if (value.isArray() && value.size() > 0 && value.get(0).isObject()) {
        // hcl2json writes blocks as lists of objects; an argument holding objects would be
        // written as a single object or an expression instead.
        problems.add(file + ": " + at + " is an argument, written as a block");
      }
    }
  }

  private static List<Map.Entry<String, JsonNode>> fields(JsonNode node) {
    return new ArrayList<>(node.properties());
  }
}
