package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Golden;
import dev.gpugen.TestSpecs;
import dev.gpugen.spec.ClusterSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden render trees: src/test/resources/golden/CASE/spec.yaml (+ env.txt to select an overlay)
 * renders to exactly CASE/expected/** — missing, extra and changed files all fail, with a diff.
 */
class RenderGoldenTest {
  static final Path CASES = Path.of("src/test/resources/golden");

  @TestFactory
  Stream<DynamicTest> goldens() throws IOException {
    List<Path> cases;
    try (Stream<Path> s = Files.list(CASES)) {
      cases = s.filter(Files::isDirectory).sorted().toList();
    }
    assertTrue(cases.size() >= 2, "golden cases exist");
    return cases.stream()
        .flatMap(
            c ->
                Stream.of(
                    DynamicTest.dynamicTest(c.getFileName() + " matches golden", () -> golden(c)),
                    DynamicTest.dynamicTest(
                        c.getFileName() + " renders byte-identically twice", () -> twice(c))));
  }

  private static RenderedTree render(Path dir) throws Exception {
    Path env = dir.resolve("env.txt");
    Optional<String> envName =
        Files.exists(env) ? Optional.of(Files.readString(env).trim()) : Optional.empty();
    ClusterSpec spec = TestSpecs.read(dir.resolve("spec.yaml"), envName);
    return new Renderer(Templates.load(Optional.empty()))
        .render(dev.gpugen.TestSpecs.plan(spec), "spec.yaml");
  }

  private static void golden(Path dir) throws Exception {
    Map<String, byte[]> files = new TreeMap<>();
    render(dir).files().forEach((k, v) -> files.put(k, v.content()));
    Golden.assertTree(dir.resolve("expected"), files);
  }

  private static void twice(Path dir) throws Exception {
    assertEquals(render(dir), render(dir));
  }
}
