package dev.gpugen.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.Golden;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What NVIDIA's RDMA shared device plugin does with its config.json before it serves anything:
 * json.Unmarshal into the Go types recorded in
 * src/test/resources/upstream/k8s-rdma-shared-dev-plugin-config.txt (a value of another JSON type
 * is an error), then ValidateConfigs' rules. Any problem makes the plugin exit, so its pods
 * crash-loop and no node advertises the resource. Stricter than the plugin in one way: a key the
 * plugin does not know is reported, since Go would ignore it silently.
 */
final class RdmaSharedDevicePluginConfig {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern RESOURCE_NAME = Pattern.compile("^[a-zA-Z0-9_]+$");
  private static final BigInteger GO_INT_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger GO_INT_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private RdmaSharedDevicePluginConfig() {}

  /** The Go type of each JSON path, from the upstream record. */
  static Map<String, String> types() {
    Map<String, String> out = new LinkedHashMap<>();
    try {
      for (String line :
          Files.readAllLines(
              Golden.repo()
                  .resolve("src/test/resources/upstream/k8s-rdma-shared-dev-plugin-config.txt"))) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.trim().split("\\s+");
        out.put(f[0], f[1]);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** Why the plugin would exit on {@code configJson}; empty when it would start. */
  static List<String> problems(String configJson) {
    JsonNode root;
    try {
      root = JSON.readTree(configJson);
    } catch (IOException e) {
      return List.of("config.json is not JSON: " + e.getMessage());
    }
    List<String> out = new ArrayList<>();
    Map<String, String> types = types();
    root = canonical(root, "", types);
    decode(root, "", "UserConfigList", types, out);
    if (!out.isEmpty()) {
      return out;
    }
    validate(root, out);
    return out;
  }

  /**
   * {@code value} with each key that Go's encoding/json matches to a field case-insensitively
   * renamed to the field's own spelling, so the rules below read one spelling.
   */
  private static JsonNode canonical(JsonNode value, String path, Map<String, String> types) {
    if (value.isArray()) {
      com.fasterxml.jackson.databind.node.ArrayNode out = JSON.createArrayNode();
      value.forEach(item -> out.add(canonical(item, path + "[]", types)));
      return out;
    }
    if (!value.isObject()) {
      return value;
    }
    com.fasterxml.jackson.databind.node.ObjectNode out = JSON.createObjectNode();
    for (Map.Entry<String, JsonNode> f : value.properties()) {
      String child = field(types, path, f.getKey());
      String key = child == null ? f.getKey() : child.substring(child.lastIndexOf('.') + 1);
      out.set(key, canonical(f.getValue(), child == null ? path + "." + key : child, types));
    }
    return out;
  }

  /** json.Unmarshal of {@code value} at {@code path} into {@code type}. */
  private static void decode(
      JsonNode value, String path, String type, Map<String, String> types, List<String> out) {
    if (value.isNull()) {
      return; // Go leaves the zero value.
    }
    String where = path.isEmpty() ? "the configuration" : path;
    switch (type) {
      case "int", "*int" -> {
        if (!value.isIntegralNumber()
            || value.bigIntegerValue().compareTo(GO_INT_MIN) < 0
            || value.bigIntegerValue().compareTo(GO_INT_MAX) > 0) {
          out.add(mismatch(value, where, "int"));
        }
      }
      case "string" -> {
        if (!value.isTextual()) {
          out.add(mismatch(value, where, "string"));
        }
      }
      case "[]string" -> {
        if (!value.isArray()) {
          out.add(mismatch(value, where, "[]string"));
          return;
        }
        for (JsonNode item : value) {
          if (!item.isTextual() && !item.isNull()) {
            out.add(mismatch(item, where + "[]", "string"));
          }
        }
      }
      default -> {
        if (type.startsWith("[]")) {
          if (!value.isArray()) {
            out.add(mismatch(value, where, type));
            return;
          }
          for (JsonNode item : value) {
            decode(item, path + "[]", type.substring(2), types, out);
          }
          return;
        }
        if (!value.isObject()) {
          out.add(mismatch(value, where, "types." + type));
          return;
        }
        for (Map.Entry<String, JsonNode> f : value.properties()) {
          String child = field(types, path, f.getKey());
          if (child == null) {
            out.add(
                where
                    + " has the key "
                    + f.getKey()
                    + ", which the plugin does not read (it ignores it)");
            continue;
          }
          decode(f.getValue(), child, types.get(child), types, out);
        }
      }
    }
  }

  /** The recorded path of key {@code key} under {@code path}: exact, else case-insensitive. */
  private static String field(Map<String, String> types, String path, String key) {
    String prefix = path.isEmpty() ? "" : path + ".";
    if (types.containsKey(prefix + key)) {
      return prefix + key;
    }
    for (String p : types.keySet()) {
      if (p.startsWith(prefix)
          && !p.substring(prefix.length()).contains(".")
          && p.substring(prefix.length())
              .toLowerCase(Locale.ROOT)
              .equals(key.toLowerCase(Locale.ROOT))) {
        return p;
      }
    }
    return null;
  }

  private static String mismatch(JsonNode value, String where, String goType) {
    String kind =
        value.isTextual()
            ? "string"
            : value.isBoolean()
                ? "bool"
                : value.isNumber() ? "number " + value : value.isArray() ? "array" : "object";
    return "json: cannot unmarshal "
        + kind
        + " into "
        + where
        + " of Go type "
        + goType
        + " (the plugin exits: ReadConfig, log.Fatalln)";
  }

  /** ValidateConfigs (pkg/resources/resources_manager.go), on a configuration that decoded. */
  private static void validate(JsonNode root, List<String> out) {
    JsonNode interval = root.path("periodicUpdateInterval");
    if (interval.isIntegralNumber() && interval.asLong() < 0) {
      out.add("invalid \"periodicUpdateInterval\" configuration \"" + interval.asLong() + "\"");
    }
    JsonNode list = root.path("configList");
    if (!list.isArray() || list.isEmpty()) {
      out.add("no resources configuration found");
      return;
    }
    Set<String> names = new HashSet<>();
    for (JsonNode conf : list) {
      String name = conf.path("resourceName").asText("");
      if (!RESOURCE_NAME.matcher(name).matches()) {
        out.add("error: resource name \"" + name + "\" contains invalid characters");
      }
      if (!names.add(name)) {
        out.add("error: resource name \"" + name + "\" already exists");
      }
      if (conf.path("rdmaHcaMax").asLong(0) < 0) {
        out.add("error: Invalid value for rdmaHcaMax < 0: " + conf.path("rdmaHcaMax").asLong());
      }
      boolean selectors = false;
      for (JsonNode s : conf.path("selectors")) {
        selectors |= s.isArray() && !s.isEmpty();
      }
      boolean devices = conf.path("devices").isArray() && !conf.path("devices").isEmpty();
      if (!selectors && !devices) {
        out.add(
            "error: configuration missmatch. neither \"selectors\" nor \"devices\" fields exits");
      }
      if (selectors && devices) {
        out.add("configuration mismatch. Cannot specify both \"selectors\" and \"devices\" fields");
      }
    }
  }
}
