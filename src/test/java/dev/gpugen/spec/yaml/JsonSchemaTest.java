package dev.gpugen.spec.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.gpugen.Cli;
import dev.gpugen.Golden;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * schema/gpugen-v1.schema.json is what editors load (yaml-language-server in VS Code, JetBrains'
 * JSON Schema mappings): it must be the current `gpugen schema`, accept every example and reject
 * what the reader rejects as unknown keys. Checked with networknt's draft 2020-12 validator, and
 * its patterns with the ECMAScript engine the editors run.
 */
class JsonSchemaTest {
  static final Path SCHEMA = Path.of("schema/gpugen-v1.schema.json");
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  void committedSchemaIsTheCurrentSchemaCommandOutput() {
    Cli r = Cli.run("schema");
    assertEquals(0, r.exit(), r.toString());
    // -Dgpugen.updateGolden=true rewrites it, like every other golden file.
    Golden.assertFile(SCHEMA, r.out());
  }

  /** Every example, and every clean case of the diagnostic corpus, passes the schema. */
  @TestFactory
  Stream<DynamicTest> specsTheReaderAcceptsPassTheSchema() throws IOException {
    Schema schema = schema();
    List<Path> specs = new ArrayList<>();
    try (Stream<Path> s = Files.walk(Path.of("examples"), 2)) {
      s.filter(p -> p.getFileName().toString().equals("cluster.yaml")).sorted().forEach(specs::add);
    }
    try (Stream<Path> s = Files.walk(Path.of("src/test/resources/diagnostics"), 2)) {
      s.filter(p -> p.getFileName().toString().equals("clean.yaml")).sorted().forEach(specs::add);
    }
    assertTrue(specs.size() > 3, "examples and clean cases found: " + specs);
    return specs.stream()
        .map(
            spec ->
                DynamicTest.dynamicTest(
                    spec.toString(),
                    () -> {
                      assertEquals(0, Cli.run("validate", spec.toString()).exit(), "valid spec");
                      List<Error> errors = schema.validate(tree(spec));
                      assertTrue(errors.isEmpty(), spec + ": " + errors);
                    }));
  }

  @Test
  void everyStarterSpecOfGpugenInitPassesTheSchema() throws IOException {
    Schema schema = schema();
    for (StarterSpec.Gpu gpu : StarterSpec.Gpu.values()) {
      Object data =
          new Load(LoadSettings.builder().build())
              .loadFromString(StarterSpec.text(gpu, StarterSpec.defaultName(gpu)));
      List<Error> errors = schema.validate(JSON.valueToTree(data));
      assertTrue(errors.isEmpty(), gpu + ": " + errors);
    }
  }

  @Test
  void schemaRejectsTheUnknownKeysOfTheBrokenSpecCorpus() throws IOException {
    Schema schema = schema();
    assertRejects(
        schema,
        Path.of("src/test/resources/diagnostics/spec-unknown-key/fires.yaml"),
        "instanceTyp");
    assertRejects(schema, Path.of("src/test/resources/hostile/typo-top-level.yaml"), "pool");
  }

  @Test
  void examplesPointTheirEditorAtTheCommittedSchema() throws IOException {
    try (Stream<Path> s = Files.list(Path.of("examples"))) {
      for (Path dir : s.sorted().toList()) {
        Path spec = dir.resolve("cluster.yaml");
        String first = Files.readAllLines(spec).get(0);
        if (dir.endsWith("aws-h100")) {
          continue; // the reference spec stays minimal: no modeline
        }
        String prefix = "# yaml-language-server: $schema=";
        assertTrue(first.startsWith(prefix), spec + " starts with the modeline: " + first);
        Path target = dir.resolve(first.substring(prefix.length())).normalize();
        assertEquals(SCHEMA.normalize(), target, spec + ": modeline target");
      }
    }
  }

  /**
   * yaml-language-server compiles `pattern` with JavaScript's RegExp (unicode mode): a Java-only
   * construct would break completion for every key below it.
   */
  @RealToolsTest
  @Test
  void everyPatternIsAnEcmaScriptRegex() throws Exception {
    Path script = tmp.resolve("patterns.js");
    Files.writeString(
        script,
        "const s = require(process.argv[2]); const bad = [];\n"
            + "(function walk(n) { if (n && typeof n === 'object') for (const [k, v] of"
            + " Object.entries(n)) { if (k === 'pattern') { try { new RegExp(v, 'u'); } catch (e)"
            + " { bad.push(v + ': ' + e.message); } } else walk(v); } })(s);\n"
            + "if (bad.length) { console.log(bad.join('\\n')); process.exit(1); }\n"
            + "console.log('ok');\n");
    RealTools.Result r =
        RealTools.run(
                tmp,
                Duration.ofMinutes(1),
                Map.of(),
                "node",
                script.toString(),
                SCHEMA.toAbsolutePath().toString())
            .assertOk();
    assertEquals("ok", r.output().strip());
  }

  private static void assertRejects(Schema schema, Path spec, String unknownKey)
      throws IOException {
    List<Error> errors = schema.validate(tree(spec));
    assertFalse(errors.isEmpty(), spec + " must fail the schema");
    assertTrue(
        errors.stream()
            .anyMatch(
                e ->
                    "additionalProperties".equals(e.getKeyword())
                        && unknownKey.equals(e.getProperty())),
        spec + ": no additionalProperties error for " + unknownKey + " in " + errors);
  }

  private static Schema schema() throws IOException {
    return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
        .getSchema(Files.readString(SCHEMA));
  }

  /** The spec as an editor sees it: YAML 1.2 (as gpugen reads it), as a JSON tree. */
  private static JsonNode tree(Path spec) throws IOException {
    Object data = new Load(LoadSettings.builder().build()).loadFromString(Files.readString(spec));
    return JSON.valueToTree(data);
  }
}
