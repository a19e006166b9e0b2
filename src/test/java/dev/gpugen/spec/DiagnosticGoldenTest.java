package dev.gpugen.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import dev.gpugen.Golden;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.Rules;
import dev.gpugen.spec.yaml.ReaderRules;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every rule id has a case that fires (the exact printed text, caret included, is a golden file)
 * and a case that does not. Cases live in src/test/resources/diagnostics/RULE-ID/.
 */
class DiagnosticGoldenTest {
  static final Path CASES = Path.of("src/test/resources/diagnostics");

  static List<String> allRuleIds() {
    List<String> ids = new ArrayList<>(ReaderRules.all().keySet());
    Rules.all().stream().map(Rule::id).forEach(ids::add);
    return ids;
  }

  @Test
  void everyRuleHasACaseDirectory() throws IOException {
    TreeSet<String> dirs = new TreeSet<>();
    try (Stream<Path> s = Files.list(CASES)) {
      s.forEach(p -> dirs.add(p.getFileName().toString()));
    }
    assertEquals(new TreeSet<>(allRuleIds()), dirs, "one case directory per rule id, no strays");
  }

  @TestFactory
  Stream<DynamicTest> fires() {
    return allRuleIds().stream()
        .map(id -> DynamicTest.dynamicTest(id + " fires", () -> firesCase(id)));
  }

  @TestFactory
  Stream<DynamicTest> clean() {
    return allRuleIds().stream()
        .map(id -> DynamicTest.dynamicTest(id + " stays quiet", () -> cleanCase(id)));
  }

  private static void firesCase(String id) throws IOException {
    Path dir = CASES.resolve(id);
    Path spec = dir.resolve("fires.yaml");
    Path generated = null;
    if (Files.exists(dir.resolve("GENERATED"))) {
      generated = Files.createTempDirectory("gpugen-gen").resolve("fires.yaml");
      Files.writeString(generated, oversized(), StandardCharsets.UTF_8);
      spec = generated;
    }
    List<String> args = new ArrayList<>(List.of("validate", spec.toString().replace('\\', '/')));
    args.addAll(extraArgs(dir));
    Cli r = Cli.run(args.toArray(String[]::new));
    // Reader rules are errors; a lint rule fails the run when it is at least --fail-on.
    Severity severity = Rules.byId(id).map(rule -> rule.defaultSeverity()).orElse(Severity.ERROR);
    List<String> extra = extraArgs(dir);
    int at = extra.indexOf("--fail-on");
    Severity failOn =
        at < 0 ? Severity.ERROR : Severity.valueOf(extra.get(at + 1).toUpperCase(Locale.ROOT));
    assertEquals(
        severity.atLeast(failOn) ? 1 : 0,
        r.exit(),
        "a finding fails validate when it is at least --fail-on\n" + r);
    assertTrue(r.out().contains("[" + id + "]: "), r.toString());
    assertFalse(r.out().contains("Exception") || r.err().contains("\tat "), r.toString());
    String printed =
        generated == null ? r.out() : r.out().replace(generated.toString(), "GENERATED");
    Golden.assertFile(dir.resolve("fires.txt"), printed);
  }

  private static void cleanCase(String id) throws IOException {
    Path dir = CASES.resolve(id);
    List<String> args = new ArrayList<>(List.of("validate", dir.resolve("clean.yaml").toString()));
    args.addAll(extraArgs(dir).stream().filter(a -> !a.equals("staging")).toList());
    if (args.contains("--env")) {
      args.add("dev");
    }
    Cli r = Cli.run(args.toArray(String[]::new));
    assertFalse(r.out().contains("[" + id + "]"), r.toString());
    assertEquals(0, r.exit(), "clean cases are valid specs\n" + r);
  }

  private static List<String> extraArgs(Path dir) throws IOException {
    Path f = dir.resolve("args.txt");
    return Files.exists(f) ? List.of(Files.readString(f).trim().split("\\s+")) : List.of();
  }

  /** A valid spec followed by a 1.1 MiB comment. */
  static String oversized() {
    return "apiVersion: gpugen/v1\n# " + "x".repeat(1_100_000) + "\n";
  }
}
