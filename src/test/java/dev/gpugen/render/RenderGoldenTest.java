package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Golden;
import dev.gpugen.TestSpecs;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
 *
 * <p>A case holds the files generated from templates plus {@code static-files.txt}, the list of
 * static files the case gets. The static files themselves (the same for every spec but for the
 * header) have one snapshot, {@code golden-static/}, so editing a role task changes one golden.
 */
class RenderGoldenTest {
  static final Path CASES = Path.of("src/test/resources/golden");
  static final Path STATIC = Path.of("src/test/resources/golden-static");
  static final String STATIC_LIST = "static-files.txt";

  @TestFactory
  Stream<DynamicTest> goldens() throws IOException {
    List<Path> cases;
    try (Stream<Path> s = Files.list(CASES)) {
      cases = s.filter(Files::isDirectory).sorted().toList();
    }
    assertTrue(cases.size() >= 2, "golden cases exist");
    DynamicTest snapshot =
        DynamicTest.dynamicTest("the static files match their one snapshot", () -> staticSet());
    return Stream.concat(
        Stream.of(snapshot),
        cases.stream()
            .flatMap(
                c ->
                    Stream.of(
                        DynamicTest.dynamicTest(
                            c.getFileName() + " matches golden", () -> golden(c)),
                        DynamicTest.dynamicTest(
                            c.getFileName() + " renders byte-identically twice", () -> twice(c)))));
  }

  private static ClusterPlan plan(Path dir) throws Exception {
    Path env = dir.resolve("env.txt");
    Optional<String> envName =
        Files.exists(env) ? Optional.of(Files.readString(env).trim()) : Optional.empty();
    ClusterSpec spec = TestSpecs.read(dir.resolve("spec.yaml"), envName);
    return TestSpecs.plan(spec);
  }

  private static RenderedTree render(Path dir) throws Exception {
    return new Renderer(Templates.load(Optional.empty())).render(plan(dir), "spec.yaml");
  }

  private static void golden(Path dir) throws Exception {
    Templates templates = Templates.load(Optional.empty());
    RenderedTree tree = new Renderer(templates).render(plan(dir), "spec.yaml");
    Map<String, byte[]> files = new TreeMap<>();
    StringBuilder statics = new StringBuilder();
    for (RenderPlan.Output o : RenderPlan.of(plan(dir), templates)) {
      byte[] content = tree.files().get(o.path()).content();
      if (o.template()) {
        files.put(o.path(), content);
      } else {
        statics.append(o.path()).append('\n');
        // Static files are the same in every case: each one against its one snapshot.
        assertEquals(
            Files.readString(STATIC.resolve(o.source())),
            new String(content, StandardCharsets.UTF_8),
            o.path() + " differs from " + STATIC.resolve(o.source()));
      }
    }
    files.put(
        STATIC_LIST,
        statics
            .toString()
            .lines()
            .sorted()
            .map(l -> l + "\n")
            .reduce("", String::concat)
            .getBytes(StandardCharsets.UTF_8));
    Golden.assertTree(dir.resolve("expected"), files);
  }

  /** Every static file, with the header a spec named spec.yaml gives it. */
  private static void staticSet() throws Exception {
    Templates templates = Templates.load(Optional.empty());
    Map<String, byte[]> files = new TreeMap<>();
    for (String name : templates.names()) {
      if (!name.endsWith(Templates.SUFFIX)) {
        files.put(
            name, new Renderer(templates).copy(name, "spec.yaml").getBytes(StandardCharsets.UTF_8));
      }
    }
    Golden.assertTree(STATIC, files);
  }

  private static void twice(Path dir) throws Exception {
    assertEquals(render(dir), render(dir));
  }
}
