package dev.gpugen.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.gpugen.Cli;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code validate --format sarif} is valid SARIF 2.1.0 (checked against the standard's JSON Schema,
 * vendored under src/test/resources/sarif) and carries what GitHub code scanning needs: rules with
 * help, results with a rule, a level, a message and a line and column in the spec.
 */
class SarifOutputTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static Schema schema;

  @BeforeAll
  static void loadSchema() throws IOException {
    try (InputStream in =
        SarifOutputTest.class.getResourceAsStream("/sarif/sarif-2.1.0-rtm.5.json")) {
      ObjectNode node = (ObjectNode) JSON.readTree(in);
      // The schema's own id is a remote URL; without it every $ref stays inside the file.
      node.remove("id");
      schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4).getSchema(node);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "examples/aws-h100/cluster.yaml",
        "src/test/resources/seeds/seed1.yaml",
        "src/test/resources/seeds/seed2.yaml",
        "src/test/resources/diagnostics/spec-unknown-key/fires.yaml",
        "src/test/resources/diagnostics/spec-yaml-syntax/fires.yaml",
        "src/test/resources/diagnostics/sec-imdsv1-enabled/fires.yaml"
      })
  void outputIsValidSarifWithEveryFindingOnItsLine(String spec) throws IOException {
    Cli text = Cli.run("validate", "--format", "json", spec);
    Cli sarif = Cli.run("validate", "--format", "sarif", spec);
    assertEquals(text.exit(), sarif.exit(), "same exit code in every format\n" + sarif);
    JsonNode log = JSON.readTree(sarif.out());
    List<Error> errors = schema.validate(log);
    assertEquals(List.of(), errors, sarif.out());

    assertEquals("2.1.0", log.path("version").asText());
    JsonNode run = log.path("runs").path(0);
    assertEquals("gpugen", run.path("tool").path("driver").path("name").asText());
    JsonNode rules = run.path("tool").path("driver").path("rules");
    Set<String> ruleIds = new HashSet<>();
    rules.forEach(r -> ruleIds.add(r.path("id").asText()));
    for (JsonNode r : rules) {
      assertFalse(r.path("help").path("text").asText().isBlank(), r.toString());
      // GitHub code scanning documents 1024 characters for rule descriptions.
      assertTrue(r.path("fullDescription").path("text").asText().length() <= 1024, r.toString());
      assertTrue(r.path("shortDescription").path("text").asText().length() <= 1024, r.toString());
      assertTrue(
          Set.of("error", "warning", "note")
              .contains(r.path("defaultConfiguration").path("level").asText()),
          r.toString());
    }

    JsonNode expected = JSON.readTree(text.out()).path("diagnostics");
    JsonNode results = run.path("results");
    assertEquals(expected.size(), results.size(), sarif.out());
    for (int i = 0; i < results.size(); i++) {
      JsonNode r = results.get(i);
      JsonNode d = expected.get(i);
      assertEquals(d.path("rule").asText(), r.path("ruleId").asText());
      assertTrue(ruleIds.contains(r.path("ruleId").asText()), r.toString());
      assertEquals(
          r.path("ruleId").asText(),
          rules.get(r.path("ruleIndex").asInt()).path("id").asText(),
          "ruleIndex points at the rule");
      String level = d.path("severity").asText().replace("info", "note");
      assertEquals(level, r.path("level").asText());
      JsonNode loc = r.path("locations").path(0).path("physicalLocation");
      assertEquals(spec, loc.path("artifactLocation").path("uri").asText());
      assertEquals(d.path("line").asInt(), loc.path("region").path("startLine").asInt());
      assertEquals(d.path("column").asInt(), loc.path("region").path("startColumn").asInt());
      assertTrue(r.path("message").path("text").asText().startsWith(d.path("message").asText()));
      assertFalse(r.path("partialFingerprints").isEmpty(), r.toString());
    }
  }

  /**
   * A security rule the spec skips with a written reason: the run passes, and SARIF still reports
   * the finding, as suppressed in the source with the reason as its justification; CI's
   * --no-spec-suppressions makes it an error again, with no suppression.
   */
  @Test
  void aSecurityRuleTheSpecSkipsIsASuppressionWithItsReason(@TempDir Path tmp) throws IOException {
    String reason = "legacy AMI reads IMDSv1 until its agent is replaced";
    Path spec = tmp.resolve("cluster.yaml");
    Files.writeString(
        spec,
        Files.readString(Path.of("src/test/resources/diagnostics/sec-imdsv1-enabled/fires.yaml"))
            .replaceFirst(
                "(?m)^software:",
                "lint:\n  skip: [sec-imdsv1-enabled]\n  reasons: {sec-imdsv1-enabled: \""
                    + reason
                    + "\"}\nsoftware:"));
    Cli ci = Cli.run("validate", "--format", "json", "--no-spec-suppressions", spec.toString());
    assertEquals(1, ci.exit(), ci.toString());
    JsonNode finding = null;
    for (JsonNode d : JSON.readTree(ci.out()).path("diagnostics")) {
      if (d.path("rule").asText().equals("sec-imdsv1-enabled")) {
        finding = d;
      }
    }
    assertNotNull(finding, ci.out());

    Cli sarif = Cli.run("validate", "--format", "sarif", spec.toString());
    assertEquals(0, sarif.exit(), sarif.toString());
    JsonNode log = JSON.readTree(sarif.out());
    assertEquals(List.of(), schema.validate(log), sarif.out());
    List<JsonNode> suppressed = new java.util.ArrayList<>();
    for (JsonNode r : log.path("runs").path(0).path("results")) {
      if (r.has("suppressions")) {
        suppressed.add(r);
      }
    }
    assertEquals(1, suppressed.size(), sarif.out());
    JsonNode r = suppressed.get(0);
    assertEquals("sec-imdsv1-enabled", r.path("ruleId").asText());
    assertEquals("error", r.path("level").asText());
    assertEquals(
        finding.path("line").asInt(),
        r.path("locations")
            .path(0)
            .path("physicalLocation")
            .path("region")
            .path("startLine")
            .asInt());
    JsonNode s = r.path("suppressions").path(0);
    assertEquals("inSource", s.path("kind").asText());
    assertEquals(reason, s.path("justification").asText());

    Cli strict =
        Cli.run("validate", "--format", "sarif", "--no-spec-suppressions", spec.toString());
    assertEquals(1, strict.exit(), strict.toString());
    assertFalse(strict.out().contains("\"suppressions\""), strict.out());
    assertTrue(strict.out().contains("\"ruleId\" : \"sec-imdsv1-enabled\""), strict.out());
  }

  @ParameterizedTest
  @ValueSource(strings = {"--format=sarif"})
  void severalFilesGoIntoOneRun(String format) throws IOException {
    List<String> files =
        List.of("src/test/resources/seeds/seed1.yaml", "src/test/resources/seeds/seed2.yaml");
    Cli sarif = Cli.run("validate", format, files.get(0), files.get(1));
    assertEquals(1, sarif.exit());
    JsonNode log = JSON.readTree(sarif.out());
    assertEquals(List.of(), schema.validate(log));
    assertEquals(1, log.path("runs").size());
    Set<String> uris = new HashSet<>();
    log.path("runs")
        .path(0)
        .path("results")
        .forEach(
            r ->
                uris.add(
                    r.path("locations")
                        .path(0)
                        .path("physicalLocation")
                        .path("artifactLocation")
                        .path("uri")
                        .asText()));
    assertEquals(new HashSet<>(files), uris);
  }
}
