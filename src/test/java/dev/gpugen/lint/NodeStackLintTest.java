package dev.gpugen.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Gpugen;
import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.CompatTable;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.Severity;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The spec as real p5/p4d/g6 pools meet it: the instance table covers every EC2 GPU size, the
 * fabric defaults per pool, thresholds follow the GPUs they were set for, and a value the target
 * ignores is reported.
 */
class NodeStackLintTest {
  private static final String HEAD =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: demo}
      cloud: {provider: aws, region: us-east-1}
      network: {sshIngressCidrs: [203.0.113.0/24]%s}
      storage: {checkpointBucket: demo-ckpt}
      software: {driver: "580.95.05", cuda: "12.8"}
      kernel:
        sysctl: {vm.max_map_count: 262144, kernel.numa_balancing: 0}
      """;

  private static Gpugen.Checked check(String network, String rest) {
    return LinterTest.check(HEAD.formatted(network) + rest, Optional.empty(), Set.of());
  }

  private static List<Diagnostic> of(Gpugen.Checked c, String rule) {
    return LinterTest.of(c, rule);
  }

  /** The sizes the linter used to call "not in gpugen's table", and one of every family. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "g6e.xlarge",
        "g6.12xlarge",
        "p3dn.24xlarge",
        "p3.2xlarge",
        "p4d.24xlarge",
        "p4de.24xlarge",
        "p5.4xlarge",
        "p5.48xlarge",
        "p5e.48xlarge",
        "p5en.48xlarge",
        "p6-b200.48xlarge",
        "p6-b300.48xlarge",
        "p6e-gb200.36xlarge",
        "g4dn.xlarge",
        "g4dn.metal",
        "g5.xlarge",
        "g5.48xlarge",
        "g5g.xlarge",
        "g5g.metal",
        "g6.xlarge",
        "g6e.48xlarge",
        "gr6.4xlarge",
        "gr6.8xlarge"
      })
  void everyCurrentGpuSizeIsInTheTableWithASource(String type) {
    AwsInstanceType row =
        CompatTable.load().awsInstance(type).orElseThrow(() -> new AssertionError(type));
    assertTrue(row.gpuCount() >= 1 && row.gpuMemoryGib() >= 1, row::toString);
    assertTrue(row.sources().stream().allMatch(s -> s.startsWith("https://")), row::toString);
    Gpugen.Checked c = check("", "pools:\n  - {name: p, instanceType: " + type + ", count: 1}\n");
    assertEquals(List.of(), of(c, "aws-instance-type-unknown"), c.diagnostics().toString());
  }

  @Test
  void everyRowOfAFamilyHasTheSameGpuAndEfaOnlyWhereAwsListsIt() {
    CompatTable t = CompatTable.load();
    Map<String, Set<String>> gpusByFamily =
        t.awsInstances().stream()
            .collect(
                Collectors.groupingBy(
                    a -> a.name().substring(0, a.name().indexOf('.')),
                    Collectors.mapping(AwsInstanceType::gpu, Collectors.toSet())));
    gpusByFamily.forEach((family, gpus) -> assertEquals(1, gpus.size(), family + ": " + gpus));
    assertTrue(t.efaSupported("g6.8xlarge"));
    assertTrue(!t.efaSupported("g6.4xlarge"));
    assertTrue(t.efaSupported("p3dn.24xlarge"));
    assertTrue(!t.efaSupported("p3.16xlarge"));
    assertTrue(t.efaSupported("c5n.18xlarge"), "a non-GPU EFA type");
    assertTrue(!t.efaSupported("m5.xlarge"));
    assertEquals(4, t.awsInstance("g6e.48xlarge").orElseThrow().efaInterfaces());
  }

  /** A well-formed GPU name the table lacks may be new: a warning, with the nearest known type. */
  @Test
  void anUnknownTypeIsAWarningWithASuggestion() {
    Gpugen.Checked c = check("", "pools:\n  - {name: p, instanceType: p5.24xlarge, count: 2}\n");
    List<Diagnostic> ds = of(c, "aws-instance-type-unknown");
    assertEquals(1, ds.size(), c.diagnostics().toString());
    assertEquals(Severity.WARNING, ds.get(0).severity());
    assertTrue(ds.get(0).message().contains("did you mean p5.4xlarge?"), ds.get(0).message());
    assertEquals(List.of(), of(c, "compat-unknown"), "reported once, by the warning");
    assertEquals(List.of(), of(c, "aws-instance-type-invalid"));
  }

  /** A malformed name is a typo: an error naming the type to write, and nothing else about it. */
  @Test
  void aMalformedTypeIsAnErrorWithTheTypeToWrite() {
    Gpugen.Checked c =
        check(", fabric: efa", "pools:\n  - {name: p, instanceType: p5.48xlarg, count: 2}\n");
    List<Diagnostic> ds = of(c, "aws-instance-type-invalid");
    assertEquals(1, ds.size(), c.diagnostics().toString());
    assertEquals(Severity.ERROR, ds.get(0).severity());
    assertTrue(ds.get(0).message().contains("did you mean p5.48xlarge?"), ds.get(0).message());
    assertEquals(List.of(), of(c, "aws-instance-type-unknown"));
    assertEquals(List.of(), of(c, "efa-unsupported-instance"), "no EFA advice for a typo");
  }

  /** A type without NVIDIA GPUs is refused as such, once: its EFA is beside the point. */
  @Test
  void aTypeWithoutNvidiaGpusIsOneErrorEvenWithEfa() {
    Gpugen.Checked c =
        check(", fabric: efa", "pools:\n  - {name: p, instanceType: m5.xlarge, count: 2}\n");
    List<Diagnostic> ds = of(c, "aws-instance-type-invalid");
    assertEquals(1, ds.size(), c.diagnostics().toString());
    assertEquals(Severity.ERROR, ds.get(0).severity());
    assertTrue(ds.get(0).message().contains("without NVIDIA GPUs"), ds.get(0).message());
    assertEquals(List.of(), of(c, "efa-unsupported-instance"), c.diagnostics().toString());
    // A GPU type without EFA still gets the EFA error.
    Gpugen.Checked v100 =
        check(", fabric: efa", "pools:\n  - {name: p, instanceType: p3.16xlarge, count: 2}\n");
    assertEquals(1, of(v100, "efa-unsupported-instance").size(), v100.diagnostics().toString());
  }

  /** An unset fabric: EFA for the p5 pool, TCP for the g6.xlarge pool, and no warning about it. */
  @Test
  void anUnsetFabricDefaultsPerPoolAndWarnsAboutNothing() {
    Gpugen.Checked c =
        check(
            "",
            """
            pools:
              - {name: train, instanceType: p5.48xlarge, count: 2}
              - {name: infer, instanceType: g6.xlarge, count: 2}
            """);
    assertEquals(List.of(), of(c, "efa-not-used"), c.diagnostics().toString());
    assertEquals(List.of(), of(c, "efa-unsupported-instance"), c.diagnostics().toString());
    ClusterSpec spec = c.spec().orElseThrow();
    assertEquals(Fabric.EFA, spec.pools().get(0).fabric());
    assertEquals(Fabric.TCP, spec.pools().get(1).fabric());
    // Written tcp still warns on the EFA pool.
    Gpugen.Checked tcp =
        check(", fabric: tcp", "pools:\n  - {name: train, instanceType: p5.48xlarge, count: 2}\n");
    assertEquals(1, of(tcp, "efa-not-used").size(), tcp.diagnostics().toString());
  }

  /** An L4 pool added to an H100 spec inherits 320 GB/s it has no figure for. */
  @Test
  void anInheritedThresholdWithoutAFigureForTheGpusIsAWarning() {
    String pools =
        """
        pools:
          - {name: h100, instanceType: p5.48xlarge, count: 2}
          - {name: l4, instanceType: g6.48xlarge, count: 2}
        validation:
          ncclAllReduce: {minBusBandwidthGBps: 320}
        """;
    Gpugen.Checked c = check("", pools);
    List<Diagnostic> ds = of(c, "val-threshold-inherited");
    assertEquals(1, ds.size(), c.diagnostics().toString());
    assertTrue(
        ds.get(0).message().startsWith("pool l4 (g6.48xlarge, 8x L4) inherits"), ds.toString());
    assertEquals(Severity.WARNING, ds.get(0).severity());
    Gpugen.Checked own =
        check(
            "",
            pools.replace(
                "{name: l4, instanceType: g6.48xlarge, count: 2}",
                "{name: l4, instanceType: g6.48xlarge, count: 2,"
                    + " validation: {ncclAllReduce: {minBusBandwidthGBps: 40}}}"));
    assertEquals(List.of(), of(own, "val-threshold-inherited"), own.diagnostics().toString());
  }

  @Test
  void kernelSettingsOnGkeAreReportedAsIgnored() throws Exception {
    String gke =
        new String(
                java.nio.file.Files.readAllBytes(
                    dev.gpugen.Golden.repo().resolve("examples/gcp-gke/cluster.yaml")),
                java.nio.charset.StandardCharsets.UTF_8)
            + "kernel:\n  blacklistNouveau: true\n  sysctl: {vm.max_map_count: 262144}\n";
    Gpugen.Checked c = LinterTest.check(gke, Optional.empty(), Set.of());
    List<Diagnostic> ds = of(c, "spec-setting-ignored");
    assertEquals(
        List.of("kernel.blacklistNouveau", "kernel.sysctl"),
        ds.stream().map(d -> d.path().toString()).sorted().toList(),
        c.diagnostics().toString());
    assertEquals(List.of(), of(c, "sys-max-map-count-low"));
  }

  /**
   * tuning.hugepages 10000000 on p5.48xlarge: 19,531 GiB of 2 MiB pages against the 2,048 GiB the
   * instance has. The kernel would reserve what it can and leave the node nothing; the table's
   * memory makes it an error, and a reservation within 90% stays clean.
   */
  @ParameterizedTest
  @ValueSource(strings = {"10000000|true", "943719|true", "943718|false", "1024|false"})
  void hugepagesBeyondTheInstanceTypesMemoryAreAnError(String row) throws Exception {
    String[] p = row.split("\\|");
    String example =
        java.nio.file.Files.readString(java.nio.file.Path.of("examples/aws-h100/cluster.yaml"));
    String yaml =
        example.replace(
            "    instanceType: p5.48xlarge",
            "    instanceType: p5.48xlarge\n    tuning: {hugepages: " + p[0] + "}");
    Gpugen.Checked c = LinterTest.check(yaml, Optional.empty(), Set.of());
    List<Diagnostic> ds = LinterTest.of(c, "sys-hugepages-exceed-memory");
    assertEquals(Boolean.parseBoolean(p[1]) ? 1 : 0, ds.size(), c.diagnostics().toString());
    ds.forEach(
        d -> {
          assertEquals(Severity.ERROR, d.severity());
          assertEquals("pools[0].tuning.hugepages", d.path().toString());
          assertTrue(d.message().contains("2048 GiB of memory"), d.message());
        });
    assertEquals(
        OptionalInt.of(2048),
        CompatTable.load()
            .awsInstance("p5.48xlarge")
            .map(AwsInstanceType::memoryGib)
            .orElseThrow());
  }
}
