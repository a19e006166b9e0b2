package dev.gpugen.render;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the API server checks when a Node is written, for {@link KubernetesStandIn}: label keys and
 * values, annotation keys and their total size, taint keys, values, effects and duplicates. The
 * rules and messages follow k8s.io/apimachinery v0.31 pkg/util/validation/validation.go
 * (IsQualifiedName, IsValidLabelValue), pkg/api/validation/objectmeta.go (TotalAnnotationSizeLimitB
 * = 256 KiB) and kubernetes v1.31 pkg/apis/core/validation (validateNodeTaints: a taint needs a
 * qualified key, a label-value value, one of the three effects, and no two taints share key and
 * effect).
 */
final class NodeValidation {
  private static final Pattern NAME = Pattern.compile("^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$");
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");
  private static final Pattern LABEL_VALUE =
      Pattern.compile("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$");
  private static final long ANNOTATIONS_MAX = 256 * 1024;

  private NodeValidation() {}

  /** The first problem with {@code node}, in the API server's words, or null. */
  static String problem(JsonNode node) {
    JsonNode meta = node.path("metadata");
    for (Map.Entry<String, JsonNode> e : meta.path("labels").properties()) {
      String key = qualifiedName(e.getKey());
      if (key != null) {
        return "metadata.labels: Invalid value: \"" + e.getKey() + "\": " + key;
      }
      String value = e.getValue().asText();
      if (!e.getValue().isTextual()
          || value.length() > 63
          || !LABEL_VALUE.matcher(value).matches()) {
        return "metadata.labels: Invalid value: \""
            + value
            + "\": a valid label must be an empty string or consist of alphanumeric characters,"
            + " '-', '_' or '.', and must start and end with an alphanumeric character";
      }
    }
    long size = 0;
    for (Map.Entry<String, JsonNode> e : meta.path("annotations").properties()) {
      String key = qualifiedName(e.getKey().toLowerCase(java.util.Locale.ROOT));
      if (key != null) {
        return "metadata.annotations: Invalid value: \"" + e.getKey() + "\": " + key;
      }
      if (!e.getValue().isTextual()) {
        return "metadata.annotations: Invalid value: annotation values must be strings";
      }
      size +=
          e.getKey().getBytes(StandardCharsets.UTF_8).length
              + e.getValue().asText().getBytes(StandardCharsets.UTF_8).length;
    }
    if (size > ANNOTATIONS_MAX) {
      return "metadata.annotations: Too long: must have at most 262144 bytes";
    }
    Set<String> seen = new HashSet<>();
    int i = 0;
    for (JsonNode t : node.path("spec").path("taints")) {
      String where = "spec.taints[" + i++ + "]";
      String key = qualifiedName(t.path("key").asText());
      if (key != null) {
        return where + ".key: Invalid value: \"" + t.path("key").asText() + "\": " + key;
      }
      String value = t.path("value").asText("");
      if (value.length() > 63 || !LABEL_VALUE.matcher(value).matches()) {
        return where + ".value: Invalid value: \"" + value + "\": a valid label value";
      }
      String effect = t.path("effect").asText("");
      if (!Set.of("NoSchedule", "PreferNoSchedule", "NoExecute").contains(effect)) {
        return where
            + ".effect: Unsupported value: \""
            + effect
            + "\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"";
      }
      if (!seen.add(t.path("key").asText() + "\u0000" + effect)) {
        return where + ": Duplicate value: taints must be unique by key and effect pair";
      }
    }
    return null;
  }

  /** Why {@code s} is not a qualified name (an optional DNS-subdomain prefix and '/'), or null. */
  private static String qualifiedName(String s) {
    String name = s;
    int slash = s.indexOf('/');
    if (slash >= 0) {
      String prefix = s.substring(0, slash);
      name = s.substring(slash + 1);
      if (prefix.isEmpty() || prefix.length() > 253 || !DNS_SUBDOMAIN.matcher(prefix).matches()) {
        return "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric"
            + " characters, '-' or '.'";
      }
    }
    if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches()) {
      return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start"
          + " and end with an alphanumeric character";
    }
    return null;
  }
}
