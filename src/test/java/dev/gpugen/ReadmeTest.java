package dev.gpugen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's quick start is exactly two commands, and CI runs exactly those. */
class ReadmeTest {
  @Test
  void quickStartIsTwoCommandsThatCiRuns() throws IOException {
    String readme = Files.readString(Path.of("README.md"));
    int start = readme.indexOf("## Quick start");
    int block = readme.indexOf("```sh\n", start) + "```sh\n".length();
    List<String> commands =
        List.of(readme.substring(block, readme.indexOf("```", block)).strip().split("\n"));
    assertEquals(
        List.of("./gpugen render examples/aws-h100/cluster.yaml", "scripts/test"), commands);
    List<String> ci = Files.readAllLines(Path.of(".ci/run"));
    for (String c : commands) {
      assertTrue(ci.contains(c), ".ci/run runs the README command: " + c);
    }
  }
}
