package dev.gpugen;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every example is one a team could copy: its README says what it is, how to run it, what it costs
 * and which pipeline it produces. (ExamplesLintTest checks that it validates cleanly in the base
 * and in each environment, RolesGeneratedTest its committed render.)
 */
class ExamplesTest {
  @TestFactory
  Stream<DynamicTest> everyExampleIsDocumented() throws IOException {
    List<Path> dirs;
    try (Stream<Path> s = Files.list(Path.of("examples"))) {
      dirs = s.filter(Files::isDirectory).sorted().toList();
    }
    assertTrue(dirs.size() >= 3, "examples: " + dirs);
    return dirs.stream().map(dir -> DynamicTest.dynamicTest(dir + "/README.md", () -> readme(dir)));
  }

  private static void readme(Path dir) throws IOException {
    Path readme = dir.resolve("README.md");
    assertTrue(Files.isRegularFile(readme), readme + " exists");
    String text = Files.readString(readme);
    String spec = dir.resolve("cluster.yaml").toString();
    assertTrue(text.contains("./gpugen render"), readme + ": how to render");
    assertTrue(text.contains(spec), readme + ": names its spec " + spec);
    assertTrue(text.contains("## What it costs"), readme + ": a cost section");
    assertTrue(text.contains("```mermaid\nflowchart"), readme + ": a pipeline diagram");
    ClusterSpec base = TestSpecs.read(dir.resolve("cluster.yaml"), Optional.empty());
    // On GKE the Ansible side is the cluster-level plays 03-05 only (GKE owns the nodes).
    List<String> stages =
        base.cloud().provider() == Provider.GCP
            ? List.of("Terraform", "03 ", "04 ", "05 validation")
            : List.of("Terraform", "00 ", "01 ", "02 ", "03 ", "04 ", "05 validation");
    for (String stage : stages) {
      assertTrue(text.contains(stage), readme + ": the diagram shows " + stage.strip());
    }
    assertTrue(
        text.contains("roles-generated/" + base.metadata().name()),
        readme + ": links its committed render");
  }
}
