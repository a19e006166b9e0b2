package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import dev.gpugen.Golden;
import dev.gpugen.TestSpecs;
import dev.gpugen.json.Json;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PlanView;
import dev.gpugen.plan.PoolPlan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/**
 * {@code gpugen plan}: per golden case, {@code plan --json} matches CASE/plan.json (rewritten by
 * {@code -Dgpugen.updateGolden=true}); a changed derived fact fails that golden; bad input fails
 * like render's, with file:line:column and no stack trace.
 */
class PlanCommandTest {
  static final Path CASES = Path.of("src/test/resources/golden");

  private static List<Path> cases() throws IOException {
    try (Stream<Path> s = Files.list(CASES)) {
      return s.filter(Files::isDirectory).sorted().toList();
    }
  }

  private static String[] args(Path dir, String... more) throws IOException {
    List<String> a = new ArrayList<>(List.of("plan", dir.resolve("spec.yaml").toString()));
    Path env = dir.resolve("env.txt");
    if (Files.exists(env)) {
      a.add("--env");
      a.add(Files.readString(env).trim());
    }
    a.addAll(List.of(more));
    return a.toArray(String[]::new);
  }

  @TestFactory
  Stream<DynamicTest> everyGoldenCaseMatchesItsPlanGolden() throws IOException {
    List<Path> cases = cases();
    assertTrue(cases.size() >= 2, "golden cases exist");
    return cases.stream()
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.getFileName() + " plan.json",
                    () -> {
                      Cli r = Cli.run(args(c, "--json"));
                      assertEquals(0, r.exit(), r::toString);
                      Golden.assertFile(c.resolve("plan.json"), r.out());
                    }));
  }

  /** The golden is not a formality: one derived fact changed in the plan fails it, by name. */
  @Test
  void aPlantedChangeToADerivedFactFailsTheGolden() throws Exception {
    Path dir = CASES.resolve("aws-h100-reference");
    ClusterPlan plan = TestSpecs.plan(TestSpecs.read(dir.resolve("spec.yaml"), Optional.empty()));
    PoolPlan p = plan.pools().get(0);
    assertTrue(p.placementGroup().isPresent(), "the case has a placement group to change");
    PoolPlan planted =
        new PoolPlan(
            p.pool(),
            p.hardware(),
            p.kernelModules(),
            p.group(),
            p.tfPrefix(),
            Optional.of(p.placementGroup().orElseThrow() + "-planted"),
            p.timeSlicingReplicas(),
            p.launchTemplateNamePrefix(),
            p.nodes(),
            p.hcaPorts(),
            p.linkGbps(),
            p.minMultiNodeBusBandwidthGbps(),
            p.pinSocketIfname());
    List<PoolPlan> pools = new ArrayList<>(plan.pools());
    pools.set(0, planted);
    ClusterPlan changed =
        new ClusterPlan(
            plan.spec(),
            plan.compat(),
            plan.qualifiedName(),
            pools,
            plan.ncclConf(),
            plan.fingerprint(),
            plan.sources());
    String fresh = Json.writeAscii(PlanView.of(plan)) + System.lineSeparator();
    String mutated = Json.writeAscii(PlanView.of(changed)) + System.lineSeparator();
    if (Golden.updating()) {
      // Updating rewrites goldens instead of comparing; the planted plan still differs.
      assertFalse(fresh.equals(mutated));
      return;
    }
    String golden = Files.readString(dir.resolve("plan.json"), StandardCharsets.UTF_8);
    assertEquals(golden, fresh, "the unchanged plan matches the golden");
    AssertionFailedError e =
        assertThrows(
            AssertionFailedError.class, () -> Golden.assertFile(dir.resolve("plan.json"), mutated));
    assertTrue(e.getMessage().contains("-planted"), e.getMessage());
  }

  @Test
  void textFormNamesTheDerivedFactsOfEveryPool() throws IOException {
    Cli r = Cli.run(args(CASES.resolve("aws-h100-reference")));
    assertEquals(0, r.exit(), r::toString);
    assertTrue(r.out().contains("placementGroup: "), r.out());
    assertTrue(r.out().contains("efaInterfaces: "), r.out());
    assertTrue(r.out().contains("driverCudaMajor: "), r.out());
  }

  @Test
  void jsonIsDataWithThePoolsInSpecOrder() throws Exception {
    Path dir = CASES.resolve("aws-three-pool-dev");
    Cli r = Cli.run(args(dir, "--json"));
    assertEquals(0, r.exit(), r::toString);
    @SuppressWarnings("unchecked")
    Map<String, Object> parsed = (Map<String, Object>) Json.parse(r.out().getBytes());
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> pools = (List<Map<String, Object>>) parsed.get("pools");
    ClusterPlan plan = TestSpecs.plan(TestSpecs.read(dir.resolve("spec.yaml"), env(dir)));
    assertEquals(
        plan.pools().stream().map(PoolPlan::name).toList(),
        pools.stream().map(p -> p.get("name")).toList());
  }

  private static Optional<String> env(Path dir) throws IOException {
    Path env = dir.resolve("env.txt");
    return Files.exists(env) ? Optional.of(Files.readString(env).trim()) : Optional.empty();
  }

  /**
   * With gpuDriver: gke, GKE chooses the driver: the plan shows that and the installation config it
   * renders, never software.driver's branch as if it were installed.
   */
  @Test
  void gkeChosenDriverShowsNoSpecDriverBranch(@TempDir Path tmp) throws IOException {
    Path spec = tmp.resolve("cluster.yaml");
    String operator = Files.readString(CASES.resolve("gcp-gke/spec.yaml"));
    assertTrue(operator.contains("gpuDriver: operator"), "the case names its driver installer");
    Files.writeString(spec, operator.replace("gpuDriver: operator", "gpuDriver: gke"));
    Cli text = Cli.run("plan", spec.toString());
    assertEquals(ExitCodes.OK, text.exit(), text::toString);
    assertFalse(text.out().matches("(?s).*driverBranch: \\d.*"), text.out());
    assertFalse(text.out().matches("(?s).*driverCudaMajor: \\d.*"), text.out());
    assertTrue(text.out().contains("driverSource: gke"), text.out());
    assertTrue(text.out().contains("gkeDriverInstallation: DEFAULT"), text.out());
    Cli json = Cli.run("plan", spec.toString(), "--json");
    assertEquals(ExitCodes.OK, json.exit(), json::toString);
    @SuppressWarnings("unchecked")
    Map<String, Object> cluster =
        (Map<String, Object>)
            ((Map<String, Object>) Json.parse(json.out().getBytes(StandardCharsets.UTF_8)))
                .get("cluster");
    assertEquals(null, cluster.get("driverBranch"), json.out());
    assertTrue(cluster.containsKey("driverBranch"), "the key stays, so FORMAT stays");
    assertEquals("DEFAULT", cluster.get("gkeDriverInstallation"), json.out());
    Files.writeString(
        spec,
        operator.replace("gpuDriver: operator", "gpuDriver: gke\n    gpuDriverVersion: latest"));
    Cli latest = Cli.run("plan", spec.toString());
    assertEquals(ExitCodes.OK, latest.exit(), latest::toString);
    assertTrue(latest.out().contains("gkeDriverInstallation: LATEST"), latest.out());
  }

  @Test
  void anInvalidSpecExitsOneWithFileLineColumnAndNoStackTrace(@TempDir Path tmp)
      throws IOException {
    Path spec = tmp.resolve("cluster.yaml");
    Files.writeString(
        spec,
        Files.readString(CASES.resolve("aws-h100-reference/spec.yaml"))
            .replaceFirst("count: \\d+", "count: many"));
    Cli r = Cli.run("plan", spec.toString(), "--json");
    assertEquals(ExitCodes.INVALID, r.exit(), r::toString);
    assertTrue(r.err().contains(spec + ":"), r.err());
    assertTrue(r.err().matches("(?s).*cluster\\.yaml:\\d+:\\d+.*"), r.err());
    assertTrue(r.err().contains("no plan"), r.err());
    assertFalse(r.err().contains("\tat "), r.err());
    assertEquals("", r.out());
  }

  @Test
  void aMissingFileIsAnEnvironmentFailure(@TempDir Path tmp) {
    Cli r = Cli.run("plan", tmp.resolve("nope.yaml").toString());
    assertEquals(ExitCodes.ENVIRONMENT, r.exit(), r::toString);
    assertTrue(r.err().contains("no such file"), r.err());
  }
}
