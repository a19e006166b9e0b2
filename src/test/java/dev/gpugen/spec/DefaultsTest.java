package dev.gpugen.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.TestSpecs;
import dev.gpugen.testing.Records;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The reader fills every default, so the model is complete whatever the spec leaves out. */
class DefaultsTest {
  static final String MINIMAL =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: demo}
      cloud: {provider: aws, region: us-west-2}
      pools: [{name: gpu, instanceType: p4d.24xlarge}]
      software: {driver: "570.195.03", cuda: "12.8"}
      """;

  /** The model of {@link #MINIMAL}: every default. */
  static final ClusterSpec DEFAULTS = TestSpecs.parse(MINIMAL);

  @Test
  void aMinimalSpecResolvesToACompleteModel() {
    ClusterSpec s = TestSpecs.parse(MINIMAL);
    assertEquals(Optional.of("us-west-2a"), s.cloud().availabilityZone());
    assertEquals("ubuntu-22.04", s.cloud().image(), "image follows software.os");
    assertEquals(Optional.of("10.0.0.0/16"), s.network().vpcCidr());
    assertEquals(Optional.of("10.0.0.0/20"), s.network().subnetCidr());
    assertEquals(Placement.CLUSTER, s.network().placement());
    assertEquals(Fabric.EFA, s.network().fabric(), "p4d has EFA");
    assertTrue(s.network().sshIngressCidrs().isEmpty(), "no SSH unless asked: use SSM");
    assertEquals(HttpTokens.REQUIRED, s.cloud().imds().httpTokens(), "IMDSv2");
    assertEquals(1, s.cloud().imds().hopLimit(), "hop limit 1");
    ClusterSpec.Pool p = s.pools().get(0);
    assertEquals(1, p.count());
    assertEquals(Market.ON_DEMAND, p.market());
    assertEquals("gp3", p.rootVolume().type());
    assertEquals(200, p.rootVolume().sizeGiB());
    assertEquals(Optional.empty(), p.rootVolume().iops());
    assertEquals(Optional.empty(), p.rootVolume().throughput());
    assertTrue(p.rootVolume().encrypted());
    assertEquals("1.17.8", p.software().containerToolkit());
    assertEquals(KernelModules.AUTO, p.software().kernelModules());
    assertEquals("v25.3.0", p.software().gpuOperator().version());
    assertTrue(p.software().gpuOperator().dcgmExporter());
    assertFalse(p.software().gpuOperator().migManager());
    assertEquals(1, p.software().devicePlugin().timeSlicingReplicas());
    assertTrue(s.kernel().blacklistNouveau());
    assertEquals(120, s.validation().gpuBurnSeconds());
    assertEquals("8G", s.validation().maxBytes());
    assertEquals(Optional.empty(), s.validation().minBusBandwidthGBps());
    assertEquals(50, s.ansible().forks());
  }

  @Test
  void aPoolSoftwareBlockOverridesOnlyTheKeysItNames() {
    ClusterSpec s =
        TestSpecs.parse(
            MINIMAL.replace(
                "pools: [{name: gpu, instanceType: p4d.24xlarge}]",
                "pools: [{name: gpu, instanceType: p4d.24xlarge},"
                    + " {name: inf, instanceType: g6.4xlarge, software: {driver: \"580.95.05\","
                    + " gpuOperator: {dcgmExporter: false}}}]"));
    ClusterSpec.Software inf = s.pools().get(1).software();
    assertEquals("580.95.05", inf.driver());
    assertEquals("12.8", inf.cuda(), "inherited");
    assertEquals(
        Records.with(s.pools().get(0).software().gpuOperator(), "dcgmExporter", false),
        inf.gpuOperator(),
        "deep merge");
    assertEquals("570.195.03", s.pools().get(0).software().driver());
    assertEquals(
        Fabric.TCP, s.network().fabric(), "g6.4xlarge has no EFA, so the cluster default is tcp");
    assertEquals(Fabric.EFA, s.pools().get(0).fabric(), "but the p4d pool gets its EFA");
    assertEquals(Fabric.TCP, s.pools().get(1).fabric());
  }

  @Test
  void aPoolValidationBlockOverridesOnlyTheKeysItNames() {
    String yaml =
        MINIMAL
            .replace(
                "pools: [{name: gpu, instanceType: p4d.24xlarge}]",
                """
                pools:
                  - {name: gpu, instanceType: p4d.24xlarge}
                  - name: inf
                    instanceType: g6.48xlarge
                    validation: {dcgmDiagLevel: 3, ncclAllReduce: {maxBytes: 1G}}
                """)
            .concat(
                """
                validation:
                  gpuBurnSeconds: 300
                  ncclAllReduce: {minBusBandwidthGBps: 200, maxBytes: 8G}
                """);
    ClusterSpec s = TestSpecs.parse(yaml);
    ClusterSpec.Validation cluster =
        Records.with(DEFAULTS.validation(), "gpuBurnSeconds", 300, "minBusBandwidthGBps", 200.0);
    assertEquals(cluster, s.validation(), "the cluster-wide block is unchanged");
    assertEquals(cluster, s.pools().get(0).validation(), "no block: the cluster's values");
    assertEquals(
        Records.with(cluster, "dcgmDiagLevel", 3, "maxBytes", "1G"),
        s.pools().get(1).validation(),
        "its own level and size; burn-in time and threshold inherited (deep merge)");
  }

  @Test
  void anEnvironmentOverlaySetsAPoolsValidationByPoolName() throws Exception {
    String yaml =
        MINIMAL.concat(
            """
            validation: {ncclAllReduce: {minBusBandwidthGBps: 200}}
            environments:
              prod:
                pools:
                  gpu: {validation: {gpuBurnSeconds: 600, ncclAllReduce: {minBusBandwidthGBps: 210}}}
            """);
    java.nio.file.Path file = java.nio.file.Files.createTempFile("overlay", ".yaml");
    try {
      java.nio.file.Files.writeString(file, yaml);
      ClusterSpec base = TestSpecs.read(file, Optional.empty());
      ClusterSpec.Validation cluster =
          Records.with(DEFAULTS.validation(), "minBusBandwidthGBps", 200.0);
      assertEquals(cluster, base.pools().get(0).validation());
      ClusterSpec prod = TestSpecs.read(file, Optional.of("prod"));
      assertEquals(
          Records.with(cluster, "gpuBurnSeconds", 600, "minBusBandwidthGBps", 210.0),
          prod.pools().get(0).validation());
      assertEquals(Optional.of(200.0), prod.validation().minBusBandwidthGBps());
    } finally {
      java.nio.file.Files.delete(file);
    }
  }
}
