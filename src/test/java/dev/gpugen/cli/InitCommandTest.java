package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import dev.gpugen.Gpugen;
import dev.gpugen.TestSpecs;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.yaml.StarterSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code gpugen init}: a starter spec per GPU that validates with no errors (a warning at each
 * placeholder address the user must replace) and renders.
 */
class InitCommandTest {
  @TempDir Path tmp;

  @TestFactory
  Stream<DynamicTest> everyGpuStarterValidatesWithItsPlaceholderWarningAndRenders() {
    return Arrays.stream(StarterSpec.Gpu.values())
        .map(
            gpu ->
                DynamicTest.dynamicTest(
                    "init --gpu " + gpu,
                    () -> {
                      Path spec = tmp.resolve(gpu + "/cluster.yaml");
                      Cli init = Cli.run("init", "--gpu", gpu.name(), "-o", spec.toString());
                      assertEquals(0, init.exit(), init.toString());
                      assertTrue(init.out().startsWith("wrote " + spec), init.out());

                      Gpugen.Checked c =
                          TestSpecs.gpugen()
                              .check(spec, spec.toString(), Optional.empty(), Set.of());
                      assertTrue(c.spec().isPresent(), c.diagnostics().toString());
                      // What README says: no errors, one warning at the placeholder the user
                      // must replace (a documentation range), and the one info an AWS starter
                      // has, its vCPU quotas.
                      assertEquals(
                          java.util.List.of(
                              "aws-vcpu-quota pools",
                              "spec-documentation-address kubernetes.apiIngressCidrs[0]"),
                          c.diagnostics().stream().map(d -> d.ruleId() + " " + d.path()).toList(),
                          "the placeholder's warning and the quota info: " + c.diagnostics());
                      String text = Files.readString(spec);
                      assertTrue(text.contains("name: " + gpu + "-cluster"), text);
                      assertTrue(text.contains("# Written by `gpugen init --gpu " + gpu), text);

                      Path out = tmp.resolve(gpu + "/out");
                      Cli render = Cli.run("render", spec.toString(), "-o", out.toString());
                      assertEquals(0, render.exit(), render.toString());
                      assertTrue(
                          Files.isRegularFile(out.resolve("terraform/terraform.tfvars.json")));
                    }));
  }

  @Test
  void blackwellGetsTheOpenKernelModulesAndL4GetsTimeSlicing() {
    assertTrue(Cli.run("init", "--gpu", "b200", "-o", "-").out().contains("kernelModules: open"));
    String l4 = Cli.run("init", "--gpu", "l4", "-o", "-").out();
    assertTrue(l4.contains("timeSlicingReplicas: 4"), l4);
    assertTrue(l4.contains("workload-type: inference"), l4);
    assertTrue(l4.contains("  # ncclAllReduce:"), "no bandwidth floor without a published figure");
  }

  @Test
  void defaultsToH100IntoClusterYamlAndNeverOverwritesWithoutForce() throws Exception {
    Path spec = tmp.resolve("cluster.yaml");
    assertEquals(0, Cli.run("init", "--name", "my-gpus", "-o", spec.toString()).exit());
    String first = Files.readString(spec);
    assertTrue(first.contains("instanceType: p5.48xlarge"), first);
    assertTrue(first.contains("name: my-gpus "), first);

    Files.writeString(spec, "# my edits\n");
    Cli again = Cli.run("init", "--gpu", "a100", "-o", spec.toString());
    assertEquals(1, again.exit(), again.toString());
    assertEquals(
        "gpugen: " + spec + " exists; not overwritten (use --force, or -o another file)\n",
        again.err());
    assertEquals("# my edits\n", Files.readString(spec));
    try (Stream<Path> s = Files.list(tmp)) {
      assertEquals(java.util.List.of(spec), s.toList(), "no staging file left behind");
    }

    Cli forced = Cli.run("init", "--gpu", "a100", "-o", spec.toString(), "--force");
    assertEquals(0, forced.exit(), forced.toString());
    assertTrue(Files.readString(spec).contains("instanceType: p4d.24xlarge"));
  }

  /**
   * On AWS the starter's cluster is one gpugen creates and the nodes join at boot (EKS): a first
   * cluster that works end to end. On static hosts it is the user's own, and the starter says they
   * must join the hosts to it.
   */
  @Test
  void onAwsTheStarterJoinsTheNodesToEksAndOnStaticItSaysWhoJoinsThem() {
    String aws = Cli.run("init", "-o", "-").out();
    assertTrue(aws.contains("\n  distribution: eks "), aws);
    assertFalse(aws.contains("distribution: existing"), aws);
    String statics = Cli.run("init", "--provider", "static", "-o", "-").out();
    assertTrue(statics.contains("\n  distribution: existing "), statics);
    assertTrue(statics.contains("join these hosts to it yourself first"), statics);
  }

  @Test
  void dashWritesToStandardOutput() {
    Cli r = Cli.run("init", "--gpu", "h200", "-o", "-");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains("kind: GpuCluster\n"), r.out());
    assertTrue(r.out().contains("instanceType: p5en.48xlarge"), r.out());
    assertEquals("", r.err());
  }

  /** Every GPU on gcp (L4 on a G2 machine type) and on static. */
  @TestFactory
  Stream<DynamicTest> gcpAndStaticStartersValidateWithTheirPlaceholderWarningsAndRender() {
    return Stream.of("gcp", "static")
        .flatMap(
            provider ->
                Arrays.stream(StarterSpec.Gpu.values())
                    .map(
                        gpu ->
                            DynamicTest.dynamicTest(
                                "init --gpu " + gpu + " --provider " + provider,
                                () -> {
                                  Path spec = tmp.resolve(provider + "-" + gpu + "/cluster.yaml");
                                  Cli init =
                                      Cli.run(
                                          "init",
                                          "--gpu",
                                          gpu.name(),
                                          "--provider",
                                          provider,
                                          "-o",
                                          spec.toString());
                                  assertEquals(0, init.exit(), init.toString());
                                  Gpugen.Checked c =
                                      TestSpecs.gpugen()
                                          .check(spec, spec.toString(), Optional.empty(), Set.of());
                                  assertTrue(c.spec().isPresent(), c.diagnostics().toString());
                                  // Infos stay (an InfiniBand starter learns that pods need
                                  // an RDMA device plugin); the only warnings are the
                                  // placeholders the user must replace, no errors.
                                  assertEquals(
                                      provider.equals("gcp")
                                          ? java.util.List.of(
                                              "spec-documentation-address"
                                                  + " cloud.gke.authorizedNetworks[0]")
                                          : java.util.List.of(
                                              "spec-documentation-address"
                                                  + " pools[0].hosts[0].address",
                                              "spec-documentation-address"
                                                  + " pools[0].hosts[1].address"),
                                      c.diagnostics().stream()
                                          .filter(d -> d.severity().atLeast(Severity.WARNING))
                                          .map(d -> d.ruleId() + " " + d.path())
                                          .toList());
                                  assertEquals(
                                      provider, c.spec().get().cloud().provider().spelling());
                                  Path out = tmp.resolve(provider + "-" + gpu + "/out");
                                  Cli render =
                                      Cli.run("render", spec.toString(), "-o", out.toString());
                                  assertEquals(0, render.exit(), render.toString());
                                  assertEquals(
                                      provider.equals("gcp"),
                                      Files.isRegularFile(
                                          out.resolve("terraform/gke-node-pools.tf")));
                                  // Both get a static inventory.yml: the hosts, or (GKE) the
                                  // cluster and its node pools for the cluster-level checks.
                                  assertTrue(
                                      Files.isRegularFile(out.resolve("ansible/inventory.yml")));
                                  assertEquals(
                                      provider.equals("gcp"),
                                      Files.isDirectory(out.resolve("ansible/roles/gke_checks")));
                                  assertEquals(
                                      provider.equals("static"),
                                      Files.isDirectory(
                                          out.resolve("ansible/roles/nvidia_driver")));
                                })));
  }

  @Test
  void unknownProvidersAndGpusAreRefused() {
    assertEquals(2, Cli.run("init", "--provider", "azure", "-o", "-").exit());
    assertEquals(2, Cli.run("init", "--gpu", "v100", "-o", "-").exit());
  }

  @Test
  void aNameTheSpecWouldRejectIsAUsageError() {
    Path spec = tmp.resolve("cluster.yaml");
    Cli r = Cli.run("init", "--name", "My_Cluster", "-o", spec.toString());
    assertEquals(2, r.exit(), r.toString());
    assertTrue(r.err().startsWith("gpugen: --name: metadata.name is \"My_Cluster\"; "), r.err());
    assertFalse(Files.exists(spec));
  }

  /**
   * A name that would break the starter spec's YAML (a line feed, a quote, a colon) or drive the
   * terminal (ESC, a bidi override) is refused before the spec is built: a usage error naming it
   * escaped, never an internal error with a record dump.
   */
  @ParameterizedTest
  @ValueSource(strings = {"a\nb", "a\u001b[2Jb", "a\u202eb", "a: b", "a\"b", "a\u009bb"})
  void aNameThatWouldBreakTheSpecIsAUsageErrorShownEscaped(String name) {
    Path spec = tmp.resolve("cluster.yaml");
    Cli r = Cli.run("init", "--name", name, "-o", spec.toString());
    assertEquals(2, r.exit(), r.toString());
    assertTrue(r.err().startsWith("gpugen: --name: metadata.name is \""), r.err());
    assertFalse(r.err().contains("Diagnostic["), r.err());
    assertTrue(r.err().chars().noneMatch(c -> c == 0x1b || c == 0x9b || c == 0x202e), r.err());
    assertEquals(3, r.err().lines().count(), r.err());
    assertFalse(Files.exists(spec));
  }
}
