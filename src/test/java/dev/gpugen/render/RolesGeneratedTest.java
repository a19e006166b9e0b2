package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import dev.gpugen.Golden;
import dev.gpugen.TestSpecs;
import dev.gpugen.spec.ClusterSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * roles-generated/ is itself a golden: the committed render of every example (and of each of its
 * environments) must be exactly what `gpugen render --check` expects, so CI fails on a stale render
 * (kubebuilder's verify-testdata, run inside mvn verify).
 */
class RolesGeneratedTest {
  @TestFactory
  Stream<DynamicTest> committedRendersAreCurrent() throws IOException {
    List<Path> examples;
    try (Stream<Path> s = Files.walk(Path.of("examples"), 2)) {
      examples = s.filter(p -> p.getFileName().toString().equals("cluster.yaml")).sorted().toList();
    }
    assertTrue(!examples.isEmpty(), "examples/*/cluster.yaml exist");
    List<DynamicTest> tests = new ArrayList<>();
    for (Path spec : examples) {
      ClusterSpec base = TestSpecs.read(spec, Optional.empty());
      List<Optional<String>> envs = new ArrayList<>();
      envs.add(Optional.empty());
      base.environments().forEach(e -> envs.add(Optional.of(e)));
      for (Optional<String> env : envs) {
        String dir = base.metadata().name() + env.map(e -> "-" + e).orElse("");
        tests.add(
            DynamicTest.dynamicTest(
                spec + " -> roles-generated/" + dir, () -> check(spec, env, dir)));
      }
    }
    return tests.stream();
  }

  private static void check(Path spec, Optional<String> env, String dir) {
    List<String> args = new ArrayList<>(List.of("render", spec.toString()));
    env.ifPresent(e -> args.addAll(List.of("--env", e)));
    if (!Golden.updating()) {
      args.add("--check");
    }
    Cli r = Cli.run(args.toArray(String[]::new));
    assertEquals(
        0,
        r.exit(),
        "roles-generated/"
            + dir
            + " is stale: run ./gpugen "
            + String.join(" ", args).replace(" --check", "")
            + "\n"
            + r);
  }
}
