package dev.gpugen.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Gpugen;
import dev.gpugen.TestSpecs;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Severity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the rules see the spec: versions as numbers, per-pool values, overlays, skips. */
class LinterTest {
  static final String SPEC =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: demo}
      cloud: {provider: aws, region: us-east-1}
      network: {sshIngressCidrs: [203.0.113.0/24]}
      storage: {checkpointBucket: demo-ckpt}
      pools:
        - name: a
          instanceType: p5.48xlarge
          count: 2
        - name: b
          instanceType: p5.48xlarge
          count: 2
          software: {driver: "%s"}
      software:
        driver: "%s"
        cuda: "%s"
      kernel:
        sysctl: {vm.max_map_count: 262144, kernel.numa_balancing: 0}
      %s
      """;

  static Gpugen.Checked check(String yaml, Optional<String> env, Set<String> skip) {
    return TestSpecs.gpugen().check("t.yaml", yaml.getBytes(StandardCharsets.UTF_8), env, skip);
  }

  static Gpugen.Checked check(String poolDriver, String driver, String cuda, String tail) {
    return check(SPEC.formatted(poolDriver, driver, cuda, tail), Optional.empty(), Set.of());
  }

  static List<Diagnostic> of(Gpugen.Checked c, String rule) {
    return c.diagnostics().stream().filter(d -> d.ruleId().equals(rule)).toList();
  }

  @Test
  void driversAreComparedPartByPartNotAsText() {
    // As text "535.104.05" < "535.54.03"; as versions it is the newer one. CUDA 12.2 installs
    // 12.2 Update 2, which needs 535.104.05.
    Gpugen.Checked ok = check("535.104.05", "535.104.05", "12.2", "");
    assertEquals(List.of(), of(ok, "drv-cuda-needs-newer-driver"));
    Gpugen.Checked old = check("580.95.05", "535.54.03", "12.2", "");
    assertEquals(1, of(old, "drv-cuda-needs-newer-driver").size(), old.diagnostics().toString());
  }

  @Test
  void aPoolOverrideIsJudgedAndReportedWhereItIsWritten() {
    Gpugen.Checked c = check("550.54.15", "580.95.05", "12.8", "");
    List<Diagnostic> ds = of(c, "drv-cuda-needs-newer-driver");
    assertEquals(1, ds.size(), c.diagnostics().toString());
    assertEquals(14, ds.get(0).position().line(), "pool b's own software.driver");
    assertEquals("pools[1].software.driver", ds.get(0).path().toString());
  }

  /**
   * On GKE a time-sliced pool validates in a pod holding one GPU replica, whose all-reduce reports
   * 0 GB/s: a cluster-wide threshold that reaches it is an error there, and only there.
   */
  @Test
  void aThresholdReachingATimeSlicedGkePoolIsAnError() throws Exception {
    String yaml =
        Files.readString(Path.of("src/test/resources/golden/gcp-gke/spec.yaml"))
            + "validation:\n  ncclAllReduce: {minBusBandwidthGBps: 200}\n";
    Gpugen.Checked c = check(yaml, Optional.empty(), Set.of());
    List<Diagnostic> ds = of(c, "val-busbw-single-gpu");
    assertEquals(1, ds.size(), c.diagnostics().toString());
    assertTrue(ds.get(0).message().startsWith("pool l4-infer time-slices its GPUs"), ds.toString());
    assertEquals(Severity.ERROR, ds.get(0).severity());
  }

  /**
   * With gpuDriver gke no GPU Operator runs: software.containerToolkit and gpuOperator do nothing
   * (spec-setting-ignored), software.driver is GKE's choice (gcp-driver-from-gke), and a pool's own
   * software.driver never reaches its nodes under the one operator either.
   */
  @Test
  void gkesOwnDriverNamesEverySoftwareSettingItIgnores() throws Exception {
    String golden = Files.readString(Path.of("src/test/resources/golden/gcp-gke/spec.yaml"));
    String yaml =
        golden
            .replace("gpuDriver: operator", "gpuDriver: gke")
            .replace(
                "    labels: {workload-type: batch}\n",
                "    labels: {workload-type: batch}\n    software: {driver: \"580.105.08\"}\n");
    Gpugen.Checked c = check(yaml, Optional.empty(), Set.of());
    List<String> ignored =
        of(c, "spec-setting-ignored").stream().map(d -> d.path().toString()).toList();
    assertTrue(ignored.contains("software.containerToolkit"), ignored.toString());
    assertTrue(ignored.contains("software.gpuOperator"), ignored.toString());
    assertTrue(ignored.contains("pools[1].software.driver"), ignored.toString());
    List<Diagnostic> driver = of(c, "gcp-driver-from-gke");
    assertEquals(1, driver.size(), c.diagnostics().toString());
    assertEquals("software.driver", driver.get(0).path().toString());
    assertEquals(List.of(), of(check(golden, Optional.empty(), Set.of()), "gcp-driver-from-gke"));
  }

  /** A GKE cluster gpugen creates with no authorized network and a public endpoint is refused. */
  @Test
  void aGkeEndpointWithoutAuthorizedNetworksIsRefused() throws Exception {
    String golden = Files.readString(Path.of("src/test/resources/golden/gcp-gke/spec.yaml"));
    String open = golden.replace("    authorizedNetworks: [203.0.113.0/24]\n", "");
    List<Diagnostic> ds = of(check(open, Optional.empty(), Set.of()), "gcp-endpoint-open");
    assertEquals(1, ds.size(), ds.toString());
    assertEquals("cloud.gke", ds.get(0).path().toString());
    String closed =
        open.replace(
            "    gpuDriver: operator\n", "    gpuDriver: operator\n    privateEndpoint: true\n");
    assertEquals(List.of(), of(check(closed, Optional.empty(), Set.of()), "gcp-endpoint-open"));
  }

  @Test
  void poolsSharingTheClusterValueGetOneFinding() {
    String yaml =
        SPEC.formatted("x", "550.163.01", "12.4", "")
            .replace("    software: {driver: \"x\"}\n", "");
    Gpugen.Checked c = check(yaml, Optional.empty(), Set.of());
    List<Diagnostic> ds = of(c, "drv-branch-end-of-life");
    assertEquals(1, ds.size(), c.diagnostics().toString());
    assertEquals("software.driver", ds.get(0).path().toString());
  }

  @Test
  void theSpecAndTheCommandLineCanSkipOrRegradeARule() {
    String tail = "lint: {severity: {drv-branch-end-of-life: error}}";
    Gpugen.Checked regraded = check("550.163.01", "550.163.01", "12.4", tail);
    assertTrue(
        of(regraded, "drv-branch-end-of-life").stream()
            .allMatch(d -> d.severity() == Severity.ERROR));
    Gpugen.Checked skipped =
        check(
            SPEC.formatted("550.163.01", "550.163.01", "12.4", ""),
            Optional.empty(),
            Set.of("drv-branch-end-of-life"));
    assertEquals(List.of(), of(skipped, "drv-branch-end-of-life"));
  }

  @Test
  void anOverlayIsLintedAtItsOwnLines() {
    String tail = "environments:\n  dev:\n    software: {cuda: \"13.0\"}\n";
    Gpugen.Checked c =
        check(SPEC.formatted("580.95.05", "575.57.08", "12.8", tail), Optional.of("dev"), Set.of());
    List<Diagnostic> ds = of(c, "drv-cuda-below-compat-floor");
    assertEquals(1, ds.size(), c.diagnostics().toString());
    assertEquals(16, ds.get(0).position().line(), "the cluster-wide driver is the one too old");
    assertTrue(ds.get(0).message().contains("CUDA 13.0"), ds.get(0).message());
  }

  @Test
  void aPoolThresholdFromAnOverlayIsJudgedForThatPoolAtTheOverlaysLine() {
    String tail =
        """
        validation: {ncclAllReduce: {minBusBandwidthGBps: 350}}
        environments:
          dev:
            pools:
              b: {validation: {ncclAllReduce: {minBusBandwidthGBps: 200}}}
        """;
    String yaml = SPEC.formatted("580.95.05", "580.95.05", "12.8", tail);
    // 350 fits both 8x H100 pools; only dev's pool b is judged on its own 200 (validate without
    // --env checks every environment and says which one a finding belongs to).
    List<Diagnostic> all =
        of(check(yaml, Optional.empty(), Set.of()), "val-busbw-threshold-implausible");
    assertEquals(1, all.size(), all.toString());
    assertTrue(all.get(0).message().endsWith("(environment dev)"), all.get(0).message());
    Gpugen.Checked dev = check(yaml, Optional.of("dev"), Set.of());
    List<Diagnostic> ds = of(dev, "val-busbw-threshold-implausible");
    assertEquals(1, ds.size(), dev.diagnostics().toString());
    assertTrue(ds.get(0).message().contains("(pool b)"), ds.get(0).message());
    assertEquals(24, ds.get(0).position().line(), "environments.dev.pools.b.validation");
    assertEquals(
        "pools[1].validation.ncclAllReduce.minBusBandwidthGBps", ds.get(0).path().toString());
  }
}
