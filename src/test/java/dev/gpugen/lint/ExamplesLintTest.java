package dev.gpugen.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Gpugen;
import dev.gpugen.TestSpecs;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Severity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every example spec, and each of its environments, lints without an error or a warning other than
 * the one at a placeholder address.
 */
class ExamplesLintTest {
  @TestFactory
  Stream<DynamicTest> examplesAreClean() throws IOException {
    List<Path> specs;
    try (Stream<Path> s = Files.walk(Path.of("examples"))) {
      specs = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
    assertFalse(specs.isEmpty(), "no examples found");
    List<DynamicTest> tests = new ArrayList<>();
    for (Path spec : specs) {
      Gpugen.Checked base = check(spec, Optional.empty());
      tests.add(DynamicTest.dynamicTest(spec.toString(), () -> assertClean(base)));
      for (String env : base.spec().orElseThrow().environments()) {
        tests.add(
            DynamicTest.dynamicTest(
                spec + " --env " + env, () -> assertClean(check(spec, Optional.of(env)))));
      }
    }
    return tests.stream();
  }

  private static Gpugen.Checked check(Path spec, Optional<String> env) throws IOException {
    Gpugen.Checked c = TestSpecs.gpugen().check(spec, spec.toString(), env, Set.of());
    assertTrue(c.spec().isPresent(), c.diagnostics().toString());
    return c;
  }

  /**
   * The examples' office and VPN ranges are RFC 5737 placeholders on purpose (no real range belongs
   * in an example), and spec-documentation-address warns at each so that a copied example is not
   * applied as it is; every other warning or error fails.
   */
  private static void assertClean(Gpugen.Checked c) {
    List<Diagnostic> bad =
        c.diagnostics().stream()
            .filter(d -> d.severity().atLeast(Severity.WARNING))
            .filter(
                d ->
                    !(d.ruleId().equals("spec-documentation-address")
                        && d.severity() == Severity.WARNING))
            .toList();
    assertEquals(List.of(), bad, c.label());
  }
}
