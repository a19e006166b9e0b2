package dev.gpugen;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.compat.CompatTable;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/** Reads specs for tests through the same path as the CLI, failing loudly on any error. */
public final class TestSpecs {
  private TestSpecs() {}

  public static Gpugen gpugen() {
    return dev.gpugen.cli.Main.library();
  }

  public static ClusterSpec read(Path file, Optional<String> env) throws IOException {
    Gpugen.Checked c = gpugen().check(file, file.toString(), env, Set.of());
    assertTrue(
        c.spec().isPresent()
            && c.diagnostics().stream().noneMatch(d -> d.severity() == Severity.ERROR),
        "test spec " + file + " must be valid: " + c.diagnostics());
    return c.spec().orElseThrow();
  }

  /** The plan of a spec built or read in a test, over the shipped knowledge base. */
  public static ClusterPlan plan(ClusterSpec spec) {
    return ClusterPlan.of(spec, CompatTable.load());
  }

  public static ClusterSpec parse(String yaml) {
    Gpugen.Checked c =
        gpugen()
            .check(
                "test.yaml",
                yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                Optional.empty(),
                Set.of());
    assertTrue(c.spec().isPresent(), "test spec must be valid: " + c.diagnostics());
    return c.spec().orElseThrow();
  }
}
