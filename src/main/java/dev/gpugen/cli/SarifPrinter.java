package dev.gpugen.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gpugen.Gpugen;
import dev.gpugen.lint.Linter;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.Rules;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.Sha256;
import dev.gpugen.spec.yaml.ReaderRules;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Findings as SARIF 2.1.0, the format GitHub code scanning reads: one run, every rule gpugen has
 * (with its documentation as help text), and one result per finding at its line and column of the
 * spec file.
 */
final class SarifPrinter {
  static final String SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
  private static final Pattern URL = Pattern.compile("https://[^\\s,]+");
  private static final ObjectMapper JSON = new ObjectMapper();
  static final int MAX_DESCRIPTION = 1024;

  /** A rule as SARIF describes it: reader ids and lint rules alike. */
  private record RuleInfo(String id, Severity level, String summary, String doc) {}

  private SarifPrinter() {}

  static void print(PrintWriter out, List<Gpugen.Checked> checked, String toolVersion) {
    Map<String, RuleInfo> rules = new LinkedHashMap<>();
    ReaderRules.all()
        .forEach(
            (id, doc) -> rules.put(id, new RuleInfo(id, Severity.ERROR, firstSentence(doc), doc)));
    for (Rule r : Rules.all()) {
      rules.put(r.id(), new RuleInfo(r.id(), r.defaultSeverity(), r.summary(), r.documentation()));
    }
    Map<String, Integer> index = new LinkedHashMap<>();

    ObjectNode root = JSON.createObjectNode();
    root.put("$schema", SCHEMA);
    root.put("version", "2.1.0");
    ObjectNode run = root.putArray("runs").addObject();
    ObjectNode driver = run.putObject("tool").putObject("driver");
    driver.put("name", "gpugen");
    driver.put("version", toolVersion);
    driver.put("semanticVersion", toolVersion);
    ArrayNode ruleArray = driver.putArray("rules");
    for (RuleInfo r : rules.values()) {
      index.put(r.id(), index.size());
      rule(ruleArray.addObject(), r);
    }
    // snakeyaml-engine counts columns in code points.
    run.put("columnKind", "unicodeCodePoints");
    ArrayNode results = run.putArray("results");
    for (Gpugen.Checked c : checked) {
      for (Diagnostic d : c.diagnostics()) {
        result(results.addObject(), d, index.get(d.ruleId()));
      }
      // What the spec's lint.skip switched off: reported, marked as suppressed in the source with
      // the spec's written reason, so code scanning shows who turned what off and why.
      for (Linter.Suppressed q : c.suppressed()) {
        ObjectNode o = results.addObject();
        result(o, q.finding(), index.get(q.finding().ruleId()));
        ObjectNode suppression = o.putArray("suppressions").addObject();
        suppression.put("kind", "inSource");
        suppression.put("status", "accepted");
        q.justification().ifPresent(j -> suppression.put("justification", j));
      }
    }
    out.println(root.toPrettyString());
  }

  private static void rule(ObjectNode o, RuleInfo r) {
    o.put("id", r.id());
    o.putObject("shortDescription").put("text", r.summary());
    o.putObject("fullDescription").put("text", bounded(r.doc()));
    o.putObject("help").put("text", r.doc() + "\n\nMore: gpugen explain " + r.id());
    Matcher m = URL.matcher(r.doc());
    if (m.find()) {
      o.put("helpUri", m.group());
    }
    o.putObject("defaultConfiguration").put("level", level(r.level()));
    ObjectNode props = o.putObject("properties");
    ArrayNode tags = props.putArray("tags");
    tags.add("gpugen");
    if (r.id().startsWith("sec-")) {
      // GitHub ranks security alerts by this score (CVSS-like: 7.0-8.9 is high).
      tags.add("security");
      props.put("security-severity", r.level() == Severity.ERROR ? "8.0" : "5.0");
    }
  }

  private static void result(ObjectNode o, Diagnostic d, Integer ruleIndex) {
    o.put("ruleId", d.ruleId());
    if (ruleIndex != null) {
      o.put("ruleIndex", ruleIndex);
    }
    o.put("level", level(d.severity()));
    o.putObject("message").put("text", d.message() + d.hint().map(h -> ". Hint: " + h).orElse(""));
    ObjectNode loc = o.putArray("locations").addObject();
    ObjectNode physical = loc.putObject("physicalLocation");
    physical.putObject("artifactLocation").put("uri", uri(d.file()));
    ObjectNode region = physical.putObject("region");
    region.put("startLine", d.position().line());
    region.put("startColumn", d.position().column());
    if (!d.path().isRoot()) {
      loc.putArray("logicalLocations")
          .addObject()
          .put("fullyQualifiedName", d.path().toString())
          .put("kind", "member");
    }
    // Stable across edits that only move lines: rule, file, spec path and message.
    o.putObject("partialFingerprints")
        .put(
            "gpugenFinding/v1",
            Sha256.hex(d.ruleId() + "\n" + d.file() + "\n" + d.path() + "\n" + d.message()));
  }

  static String level(Severity s) {
    return switch (s) {
      case ERROR -> "error";
      case WARNING -> "warning";
      case INFO -> "note";
    };
  }

  /** The spec file as a URI reference: relative paths stay relative (to the repository root). */
  static String uri(String file) {
    String slashes = file.replace('\\', '/');
    try {
      if (Path.of(file).isAbsolute()) {
        return Path.of(file).toUri().toString();
      }
      return new URI(null, null, slashes, null).toASCIIString();
    } catch (URISyntaxException | RuntimeException e) {
      return slashes;
    }
  }

  /**
   * GitHub documents 1024 characters for rule descriptions; longer text is cut at a sentence end.
   * The whole page stays in {@code help}.
   */
  static String bounded(String text) {
    if (text.length() <= MAX_DESCRIPTION) {
      return text;
    }
    int cut = text.lastIndexOf(". ", MAX_DESCRIPTION - 2);
    return cut > 0 ? text.substring(0, cut + 1) : text.substring(0, MAX_DESCRIPTION - 1) + "…";
  }

  private static String firstSentence(String doc) {
    int dot = doc.indexOf(". ");
    return dot < 0 ? doc : doc.substring(0, dot + 1);
  }
}
