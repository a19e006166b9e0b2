package dev.gpugen.spec.yaml;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Documentation of the ids the reader reports, for {@code gpugen explain}. */
public final class ReaderRules {
  private static final Map<String, String> DOCS = new TreeMap<>();

  /** One line each, for the rule listing of {@code gpugen explain} and docs/lint-rules.md. */
  private static final Map<String, String> SUMMARIES =
      Map.ofEntries(
          Map.entry("spec-yaml-syntax", "the file is not valid YAML"),
          Map.entry("spec-duplicate-key", "a key appears twice in one mapping"),
          Map.entry("spec-multiple-documents", "the file holds more than one YAML document"),
          Map.entry("spec-too-large", "the spec is larger than 1 MiB"),
          Map.entry("spec-too-deep", "the spec nests deeper than 32 levels"),
          Map.entry("spec-aliases", "the spec expands too many YAML aliases"),
          Map.entry("spec-encoding", "the spec is not UTF-8 text, or contains a NUL character"),
          Map.entry("spec-empty", "the spec file is empty"),
          Map.entry("spec-type", "a value has the wrong type (e.g. an unquoted version)"),
          Map.entry("spec-value", "a string does not have the form its key requires"),
          Map.entry("spec-enum", "a value is not one of the words its key accepts"),
          Map.entry("spec-range", "a number or a list length is out of range"),
          Map.entry("spec-unknown-key", "a key gpugen/v1 does not have here, usually a typo"),
          Map.entry("spec-missing-key", "a required key is missing"),
          Map.entry("spec-env-unknown", "--env names an environment the spec does not declare"),
          Map.entry(
              "spec-env-unknown-pool", "an environment overlay changes a pool the spec lacks"));

  static {
    DOCS.put(
        "spec-yaml-syntax",
        "The file is not valid YAML. Fix the syntax at the position shown (indentation, a missing ':' or an unclosed quote or bracket).");
    DOCS.put(
        "spec-duplicate-key",
        "A key appears twice in one mapping. YAML 1.2 forbids it, and silently keeping the last value would hide a mistake; merge the two entries.");
    DOCS.put(
        "spec-multiple-documents",
        "A spec file holds exactly one cluster (one YAML document); remove the extra '---' documents or split them into files.");
    DOCS.put(
        "spec-too-large",
        "The spec is larger than 1 MiB. A cluster spec is a few KiB; gpugen refuses larger input so that a wrong or hostile file cannot exhaust memory.");
    DOCS.put(
        "spec-too-deep",
        "The spec nests deeper than 32 levels. A spec needs about 5; the limit stops hostile input (100,000 '[') from overflowing the stack.");
    DOCS.put(
        "spec-aliases",
        "The spec uses too many YAML aliases for collections (a 'billion laughs' expansion). Specs need no anchors; write the values out.");
    DOCS.put(
        "spec-encoding",
        "The spec is not UTF-8 text, or contains a NUL character. Save it as UTF-8.");
    DOCS.put("spec-empty", "The spec file is empty. Start from examples/aws-h100/cluster.yaml.");
    DOCS.put(
        "spec-type",
        "A value has the wrong type: a string where a number is expected, a number where a version string is expected (quote versions: cuda: \"12.8\", since 12.10 would read as 12.1), a list where a mapping is expected, or a YAML tag.");
    DOCS.put(
        "spec-value",
        "A string does not have the form its key requires (a name, a CIDR, a version, a path...). Names are lower case with '-', so they are safe as tags, file names and group names.");
    DOCS.put(
        "spec-enum", "The value is not one of the words the key accepts; the message lists them.");
    DOCS.put(
        "spec-range",
        "A number or a list length is outside what the key accepts; the message gives the range.");
    DOCS.put(
        "spec-unknown-key",
        "The key is not part of gpugen/v1 at this place, usually a typo; the message suggests the closest known key. Unknown keys are errors so that a misspelt setting never silently falls back to its default.");
    DOCS.put(
        "spec-key-moved",
        "The key was read at this place by an earlier gpugen and has moved; the message names its new place. The system pool is one key for GKE and EKS, kubernetes.systemPool (the top-level systemPool is no longer read). A moved key is an error rather than ignored, so an old spec never silently loses the setting.");
    DOCS.put("spec-missing-key", "A required key is missing; the message says what it is for.");
    DOCS.put(
        "spec-env-unknown",
        "--env NAME names an environment the spec does not declare under environments.");
    DOCS.put(
        "spec-env-unknown-pool",
        "An environment overlay changes a pool the spec does not have; pools in overlays are addressed by name.");
  }

  private ReaderRules() {}

  public static Optional<String> doc(String id) {
    return Optional.ofNullable(DOCS.get(id));
  }

  /** The one-line summary of {@code id}: its own, else the first sentence of its page. */
  public static Optional<String> summary(String id) {
    return doc(id)
        .map(
            d -> {
              String own = SUMMARIES.get(id);
              if (own != null) {
                return own;
              }
              int end = d.indexOf(". ");
              String first = end < 0 ? d : d.substring(0, end);
              return Character.toLowerCase(first.charAt(0)) + first.substring(1);
            });
  }

  public static Map<String, String> all() {
    return DOCS;
  }
}
