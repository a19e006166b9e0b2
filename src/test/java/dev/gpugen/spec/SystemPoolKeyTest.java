package dev.gpugen.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Gpugen;
import dev.gpugen.TestSpecs;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.SystemPool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The system pool is one key, kubernetes.systemPool, for GKE and EKS: the same fields bind for
 * both, a gcp spec may write it without naming a distribution, and the old top-level key is refused
 * with its new place rather than dropped.
 */
class SystemPoolKeyTest {
  private static final Path GKE = Path.of("src/test/resources/golden/gcp-gke/spec.yaml");
  private static final Path EKS = Path.of("examples/aws-h100/cluster.yaml");

  private static Gpugen.Checked check(String yaml) {
    return TestSpecs.gpugen()
        .check(
            "spec.yaml", yaml.getBytes(StandardCharsets.UTF_8), Optional.empty(), Set.<String>of());
  }

  private static List<Diagnostic> errors(Gpugen.Checked c) {
    return c.diagnostics().stream().filter(d -> d.severity() == Severity.ERROR).toList();
  }

  @Test
  void theOldTopLevelKeyIsAnErrorThatNamesTheNewPlace() throws Exception {
    String golden = Files.readString(GKE);
    String old = golden.replace("kubernetes:\n  systemPool: {enabled: true}\n", "");
    old =
        old.replaceFirst("(?m)^software:\n", "systemPool: {enabled: true, count: 3}\nsoftware:\n");
    Gpugen.Checked c = check(old);
    List<Diagnostic> errors = errors(c);
    assertEquals(1, errors.size(), c.diagnostics().toString());
    Diagnostic d = errors.get(0);
    assertEquals("spec-key-moved", d.ruleId());
    assertTrue(d.message().contains("kubernetes.systemPool"), d.message());
    int line = List.of(old.split("\n", -1)).indexOf("systemPool: {enabled: true, count: 3}") + 1;
    assertEquals(line, d.position().line(), "the key's own line");
    assertEquals(1, d.position().column());
    assertTrue(c.spec().isEmpty(), "an old spec is not rendered without its system pool settings");
  }

  @Test
  void theOldKeyInAnEnvironmentOverlayIsRefusedToo() throws Exception {
    String golden = Files.readString(GKE);
    String overlay = golden + "environments:\n  dev:\n    systemPool: {count: 1}\n";
    List<Diagnostic> errors = errors(check(overlay));
    assertFalse(errors.isEmpty());
    assertTrue(
        errors.stream().allMatch(d -> d.ruleId().equals("spec-key-moved")), errors.toString());
  }

  @Test
  void gkeReadsEveryFieldFromKubernetesSystemPoolWithoutADistribution() throws Exception {
    String golden = Files.readString(GKE);
    String yaml =
        golden.replace(
            "  systemPool: {enabled: true}\n",
            "  systemPool: {instanceType: e2-standard-8, count: 3, autoscaling: {min: 2, max: 5},"
                + " diskSizeGb: 120}\n");
    Gpugen.Checked c = check(yaml);
    assertTrue(errors(c).isEmpty(), c.diagnostics().toString());
    ClusterSpec spec = c.spec().orElseThrow();
    assertTrue(spec.kubernetes().isEmpty(), "kubernetes: with only systemPool names no cluster");
    ClusterSpec.SystemPool sp = spec.systemPool();
    assertEquals(Optional.of("e2-standard-8"), sp.instanceType());
    assertEquals(3, sp.count());
    assertEquals(
        Optional.of("2-5"), sp.autoscaling().map(a -> a.min() + "-" + a.max()), "autoscaling");
    assertEquals(120, sp.diskSizeGb());
    ClusterPlan plan = TestSpecs.plan(spec);
    assertTrue(plan.gkeSystemPool());
    // The quota counts the system pool at its maximum: 5 nodes, not the count of 3.
    ClusterPlan atCount =
        TestSpecs.plan(
            dev.gpugen.testing.Records.with(
                spec, "systemPool.autoscaling", Optional.<ClusterSpec.Autoscaling>empty()));
    assertEquals(2 * (5 - 3), plan.gkeOperatorPodQuota() - atCount.gkeOperatorPodQuota());
  }

  @Test
  void bothBoundsAreCheckedAgainstEachOther() throws Exception {
    String yaml =
        Files.readString(GKE)
            .replace(
                "  systemPool: {enabled: true}\n",
                "  systemPool: {autoscaling: {min: 4, max: 2}}\n");
    List<Diagnostic> errors = errors(check(yaml));
    assertEquals(1, errors.size(), errors.toString());
    assertEquals("spec-pool-shape", errors.get(0).ruleId());
    assertEquals("kubernetes.systemPool.autoscaling", errors.get(0).path().toString());
  }

  @Test
  void onOtherProvidersKubernetesStillNeedsItsDistribution() throws Exception {
    String eks = Files.readString(EKS);
    String noDistribution =
        eks.replaceAll("(?m)^  distribution: eks\\n", "")
            .replaceAll("(?m)^  version: \"1.33\"\\n", "");
    assertFalse(eks.equals(noDistribution));
    List<Diagnostic> errors = errors(check(noDistribution));
    assertEquals(1, errors.size(), errors.toString());
    assertEquals("spec-missing-key", errors.get(0).ruleId());
    assertTrue(errors.get(0).message().contains("distribution"), errors.get(0).message());
  }

  @Test
  void eksTakesTheSameFieldsAndItsRootVolumeFromDiskSizeGb() throws Exception {
    String eks = Files.readString(EKS);
    String yaml =
        eks.replaceFirst(
            "(?m)^(  endpointAccess: .*\\n)",
            "$1  systemPool: {instanceType: m7i.xlarge, count: 3, diskSizeGb: 80}\n");
    assertFalse(eks.equals(yaml));
    Gpugen.Checked c = check(yaml);
    assertTrue(errors(c).isEmpty(), c.diagnostics().toString());
    SystemPool sp = TestSpecs.plan(c.spec().orElseThrow()).systemPool().orElseThrow();
    assertEquals("m7i.xlarge", sp.instanceType());
    assertEquals(3, sp.count());
    assertEquals(80, sp.rootGib());
    // EKS renders count instances: autoscaling is a setting it ignores, and says so.
    String scaled =
        yaml.replace("diskSizeGb: 80}", "diskSizeGb: 80, autoscaling: {min: 1, max: 4}}");
    assertTrue(
        check(scaled).diagnostics().stream()
            .anyMatch(
                d ->
                    d.ruleId().equals("spec-setting-ignored")
                        && d.path().toString().equals("kubernetes.systemPool.autoscaling")),
        check(scaled).diagnostics().toString());
  }
}
