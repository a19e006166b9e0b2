package dev.gpugen.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Gpugen;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Severity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * tf-prod-local-state: a production environment's AWS Terraform without terraform.backend.s3 is a
 * warning at the line that names the environment, its overlay's when --env names it.
 */
class TfProdLocalStateTest {
  private static final String SPEC =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: demo%s}
      cloud: {provider: %s, region: us-east-1%s}
      pools:
        - {name: gpu, instanceType: p5.48xlarge, count: 1}
      software: {driver: "580.95.05", cuda: "12.8"}
      %s
      """;

  private static final String BACKEND =
      "terraform: {backend: {s3: {bucket: demo-state, key: gpu/demo.tfstate}}}\n";

  private static List<Diagnostic> findings(String yaml, Optional<String> env) {
    Gpugen.Checked c = LinterTest.check(yaml, env, Set.of());
    return LinterTest.of(c, "tf-prod-local-state");
  }

  private static String aws(String environment, String tail) {
    return SPEC.formatted(
        environment.isEmpty() ? "" : ", environment: " + environment, "aws", "", tail);
  }

  @ParameterizedTest
  @CsvSource({"prod, 1", "production, 1", "prd, 1", "prod-eu, 1", "preprod, 0", "staging, 0"})
  void aProductionNameWithoutABackendWarnsAtTheEnvironment(String environment, int expected) {
    List<Diagnostic> ds = findings(aws(environment, ""), Optional.empty());
    assertEquals(expected, ds.size(), environment + ": " + ds);
    if (expected == 1) {
      Diagnostic d = ds.get(0);
      assertEquals(Severity.WARNING, d.severity());
      assertEquals("metadata.environment", d.path().toString());
      // metadata: {name: demo, environment: prod}: line 3, the value's column.
      assertEquals(3, d.position().line(), d.toString());
      assertEquals(37, d.position().column(), d.toString());
      assertTrue(d.message().contains("environment " + environment), d.message());
      assertTrue(d.hint().orElseThrow().contains("terraform.backend.s3"), d.toString());
    }
  }

  @Test
  void anS3BackendOrNoEnvironmentIsNoFinding() {
    assertEquals(List.of(), findings(aws("prod", BACKEND), Optional.empty()));
    assertEquals(List.of(), findings(aws("", ""), Optional.empty()));
  }

  /**
   * Only the aws provider: the S3 backend is the one gpugen renders, and static hosts render no
   * Terraform at all. Both goldens are environment prod without a backend.
   */
  @ParameterizedTest
  @ValueSource(strings = {"gcp-gke", "static-baremetal"})
  void otherProvidersAreNoFinding(String golden) throws java.io.IOException {
    String yaml =
        Files.readString(
            Path.of("src/test/resources/golden", golden, "spec.yaml"), StandardCharsets.UTF_8);
    assertTrue(yaml.contains("environment: prod") && !yaml.contains("backend"), golden);
    Gpugen.Checked c = LinterTest.check(yaml, Optional.empty(), Set.of());
    assertTrue(c.plan().isPresent(), c.diagnostics().toString());
    assertEquals(List.of(), LinterTest.of(c, "tf-prod-local-state"));
  }

  /**
   * --env prod names the environment: the finding points at the overlay (line 11, column 3: its
   * key), where a backend for prod alone goes; an overlay's backend silences it, and dev keeps
   * local state.
   */
  @Test
  void anOverlayNamedProdIsFoundAtItsOwnLine() {
    String yaml =
        aws(
            "",
            """
            environments:
              dev:
                pools: {gpu: {count: 1}}
              prod:
                pools: {gpu: {count: 2}}
            """);
    List<Diagnostic> prod = findings(yaml, Optional.of("prod"));
    assertEquals(1, prod.size(), prod.toString());
    assertEquals("environments.prod", prod.get(0).path().toString());
    assertEquals(11, prod.get(0).position().line(), prod.get(0).toString());
    assertEquals(3, prod.get(0).position().column(), prod.get(0).toString());
    assertEquals(List.of(), findings(yaml, Optional.of("dev")));
    // Without --env every environment is linted, and the finding says which one.
    List<Diagnostic> all = findings(yaml, Optional.empty());
    assertEquals(1, all.size(), all.toString());
    assertTrue(all.get(0).message().endsWith("(environment prod)"), all.get(0).message());
    String withBackend =
        yaml.replace(
            "    pools: {gpu: {count: 2}}\n",
            "    pools: {gpu: {count: 2}}\n    " + BACKEND.replace("gpu/demo", "gpu/demo-prod"));
    assertEquals(List.of(), findings(withBackend, Optional.of("prod")));
  }
}
