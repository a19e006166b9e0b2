package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.TestSpecs;
import dev.gpugen.spec.ClusterSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.stream.Stream;

/** The specs the Terraform tests render: every golden case and every example with its envs. */
final class TerraformCases {
  private TerraformCases() {}

  /** A spec file plus the environment it is rendered with. */
  record Case(String label, Path spec, Optional<String> env) {
    ClusterSpec read() throws IOException {
      return TestSpecs.read(spec, env);
    }

    /** Its render, in memory. */
    RenderedTree render() throws IOException {
      return TestSpecs.gpugen()
          .render(TestSpecs.plan(read()), Templates.load(Optional.empty()), "spec.yaml");
    }

    /** The files under terraform/ of its render, by path. */
    SortedMap<String, String> terraform() throws IOException {
      return Rendered.terraformOf(render());
    }
  }

  /** The golden cases with Terraform for AWS. */
  static List<Path> awsGoldens() throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(Rendered.GOLDEN)) {
      s.filter(p -> Files.isRegularFile(p.resolve("spec.yaml")))
          .filter(p -> Files.isRegularFile(p.resolve("expected/terraform/moved.tf")))
          .sorted()
          .forEach(out::add);
    }
    return out;
  }

  /** Every golden case and every example (with each of its environments). */
  static List<Case> all() throws IOException {
    List<Case> cases = new ArrayList<>();
    try (Stream<Path> s = Files.list(Rendered.GOLDEN)) {
      for (Path dir : s.filter(Files::isDirectory).sorted().toList()) {
        Path env = dir.resolve("env.txt");
        cases.add(
            new Case(
                "golden " + dir.getFileName(),
                dir.resolve("spec.yaml"),
                Files.exists(env)
                    ? Optional.of(Files.readString(env, StandardCharsets.UTF_8).trim())
                    : Optional.empty()));
      }
    }
    List<Path> examples;
    try (Stream<Path> s = Files.walk(Path.of("examples"), 2)) {
      examples = s.filter(p -> p.getFileName().toString().equals("cluster.yaml")).sorted().toList();
    }
    for (Path spec : examples) {
      ClusterSpec base = TestSpecs.read(spec, Optional.empty());
      cases.add(new Case(spec.toString(), spec, Optional.empty()));
      for (String e : base.environments()) {
        cases.add(new Case(spec + " --env " + e, spec, Optional.of(e)));
      }
    }
    assertTrue(cases.size() >= 10, "golden and example specs found: " + cases);
    return cases;
  }
}
