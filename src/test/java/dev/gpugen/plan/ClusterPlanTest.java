package dev.gpugen.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.TestSpecs;
import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.drift.Drift;
import dev.gpugen.drift.Finding;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Sha256;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plan's derived facts: one definition each, and a fingerprint of deployed values only. */
class ClusterPlanTest {
  private static final String SPEC =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: atlas, environment: prod}
      cloud: {provider: aws, region: us-east-1}
      network:
        vpcCidr: 10.42.0.0/16
        subnetCidr: 10.42.0.0/20
        sshIngressCidrs: [203.0.113.0/24]
        placement: cluster
        fabric: efa
      storage: {checkpointBucket: atlas-ckpt}
      pools:
        - {name: gpu-a, instanceType: p5.48xlarge, count: 2}
      software: {driver: "580.95.05", cuda: "12.8"}
      kernel:
        sysctl: {vm.max_map_count: 262144, kernel.numa_balancing: 0}
      nccl:
        env: {NCCL_SOCKET_IFNAME: "^lo,docker", NCCL_DEBUG: WARN}
      """;

  private static ClusterPlan plan(String yaml) {
    return TestSpecs.plan(TestSpecs.parse(yaml));
  }

  @Test
  void everyNameCarriesTheEnvironmentOfTheMetadata() {
    ClusterPlan p = plan(SPEC);
    assertEquals("atlas-prod", p.qualifiedName());
    PoolPlan pool = p.pool("gpu-a");
    assertEquals("pool_gpu_a", pool.group());
    assertEquals("gpu_a", pool.tfPrefix());
    assertEquals(java.util.Optional.of("atlas-prod-gpu-a"), pool.placementGroup());
    assertEquals(
        java.util.Optional.empty(),
        plan(SPEC.replace("placement: cluster", "placement: none")).pool("gpu-a").placementGroup());
  }

  @Test
  void hardwareAndKernelModulesComeFromTheTable() {
    PoolPlan pool = plan(SPEC).pool("gpu-a");
    assertEquals("H100", pool.hardware().gpuName());
    assertEquals(8, pool.hardware().gpus());
    assertTrue(pool.hardware().nvswitch());
    assertEquals(32, pool.efaInterfaces());
    // H100 runs both flavours; the 580 branch defaults to the open modules.
    assertEquals("open", pool.kernelModules());
  }

  /**
   * GPUDirect RDMA is required in the multi-node log where aws-ofi-nccl requires it (its platform
   * table's gdr_required: p5.48xlarge, g7e.12xlarge; not g7e.8xlarge, nor g6.48xlarge), only on
   * EFA.
   */
  @Test
  void gpuDirectRdmaIsRequiredOnEfaWhereAwsOfiNcclRequiresIt() {
    for (var e :
        java.util.Map.of(
                "p5.48xlarge", true,
                "g7e.12xlarge", true,
                "g7e.48xlarge", true,
                "g7e.8xlarge", false,
                "g6.48xlarge", false)
            .entrySet()) {
      String yaml = SPEC.replace("instanceType: p5.48xlarge", "instanceType: " + e.getKey());
      assertEquals(e.getValue(), plan(yaml).pool("gpu-a").gpuDirectRdmaRequired(), e.getKey());
    }
    assertEquals(
        false,
        plan(SPEC.replace("fabric: efa", "fabric: tcp")).pool("gpu-a").gpuDirectRdmaRequired(),
        "p5.48xlarge without EFA: NCCL's sockets, no GPUDirect RDMA");
  }

  /**
   * The network interfaces of an AWS node, the plan's one definition of them (Terraform's
   * network_interfaces loops over them): on an EFA pool one per network card of the type (the EC2
   * network tables: p4d and p4de 4, p5 and p5e 32, p5en 16, p6-b200 8, p6-b300 17), efa on card 0
   * (ENA alone on P6-B300, whose card 0 has no EFA: aws/aws-parallelcluster#7143) and efa-only on
   * the others; on a TCP pool the primary ENA interface alone. The nodes get keys "0" to count - 1
   * and Name tags CLUSTER-POOL-KEY.
   */
  @Test
  void eachNodeGetsItsInterfacesAndAKey() {
    for (var e :
        java.util.Map.of(
                "p4d.24xlarge",
                4,
                "p4de.24xlarge",
                4,
                "p5.48xlarge",
                32,
                "p5e.48xlarge",
                32,
                "p5en.48xlarge",
                16,
                "p6-b200.48xlarge",
                8,
                "p6-b300.48xlarge",
                17)
            .entrySet()) {
      PoolPlan pool = plan(SPEC.replace("p5.48xlarge", e.getKey())).pool("gpu-a");
      boolean enaCard0 = e.getKey().startsWith("p6-b300");
      assertEquals(e.getValue(), pool.networkInterfaces().size(), e.getKey());
      for (int card = 0; card < e.getValue(); card++) {
        assertEquals(
            new AwsInstanceType.NetworkInterface(
                card, card > 0 ? "efa-only" : enaCard0 ? "interface" : "efa"),
            pool.networkInterfaces().get(card),
            e.getKey() + " card " + card);
      }
      assertEquals(e.getValue() - (enaCard0 ? 1 : 0), pool.efaInterfaces(), e.getKey());
    }
    PoolPlan tcp = plan(SPEC.replace("fabric: efa", "fabric: tcp")).pool("gpu-a");
    assertEquals(
        List.of(new AwsInstanceType.NetworkInterface(0, "interface")), tcp.networkInterfaces());
    assertEquals(0, tcp.efaInterfaces());

    PoolPlan pool = plan(SPEC).pool("gpu-a");
    // Name tags carry the environment: dev and prod of one cluster never share a host name.
    assertEquals(
        List.of(
            new PoolPlan.Node("0", "atlas-prod-gpu-a-0"),
            new PoolPlan.Node("1", "atlas-prod-gpu-a-1")),
        pool.nodes());
    // A retired key is skipped: count nodes on the lowest keys not retired.
    assertEquals(
        List.of("0", "2", "3"),
        plan(SPEC.replace("p5.48xlarge, count: 2}", "p5.48xlarge, count: 3, retire: [1]}"))
            .pool("gpu-a")
            .nodes()
            .stream()
            .map(PoolPlan.Node::key)
            .toList());
    assertEquals("atlas-prod-gpu-a-", pool.launchTemplateNamePrefix());
  }

  @Test
  void ncclConfIsSortedNameValueLines() {
    assertEquals("NCCL_DEBUG=WARN\nNCCL_SOCKET_IFNAME=^lo,docker\n", plan(SPEC).ncclConf());
  }

  @Test
  void theFingerprintMovesWithDeployedValuesOnly() {
    String base = plan(SPEC).fingerprint();
    assertEquals(64, base.length());
    assertEquals(base, plan(SPEC).fingerprint(), "same spec, same fingerprint");
    assertEquals(
        base,
        plan(SPEC.replace("fabric: efa", "fabric: efa   # a comment")).fingerprint(),
        "comments do not count");
    assertEquals(
        base,
        plan(SPEC + "lint: {skip: [efa-not-used]}\n").fingerprint(),
        "linter settings configure nothing deployed");
    assertNotEquals(
        base, plan(SPEC.replace("count: 2", "count: 3")).fingerprint(), "a deployed value counts");
    assertNotEquals(
        base,
        plan(SPEC.replace("NCCL_DEBUG: WARN", "NCCL_DEBUG: INFO")).fingerprint(),
        "so does an NCCL setting");
  }

  @Test
  void driftNamesAFingerprintFromAnEarlierGpugenAsTheCause(@TempDir Path tmp) throws Exception {
    ClusterPlan p = plan(SPEC);
    ClusterSpec spec = p.spec();
    // What an earlier gpugen recorded for this very spec: the hash of the model's Java text.
    String legacy = Sha256.hex(spec.toString());
    String facts =
        """
        {"ansible_facts": {"ansible_local": {
          "gpugen": {"pool": "gpu-a", "cluster": "atlas", "driver": "580.95.05", "cuda": "12.8",
                     "container_toolkit": "%s", "nccl_env_sha256": "%s",
                     "gpugen_spec_sha256": "%s"},
          "gpugen_nccl": {"nccl_env_sha256": "%s"}}}}
        """
            .formatted(
                spec.software().containerToolkit(), p.ncclConfSha256(), legacy, p.ncclConfSha256());
    Files.writeString(tmp.resolve("node-a.json"), facts);
    List<Finding> found = Drift.nodes(p, tmp);
    assertEquals(1, found.size(), found::toString);
    Finding f = found.get(0);
    assertEquals("spec-sha256", f.kind());
    assertEquals(p.fingerprint(), f.expected());
    assertTrue(f.actual().contains("fingerprinted by an earlier gpugen"), f::toString);

    // Any other recorded value is plain drift.
    Files.writeString(tmp.resolve("node-a.json"), facts.replace(legacy, "0".repeat(64)));
    Finding other = Drift.nodes(p, tmp).get(0);
    assertEquals("0".repeat(64), other.actual());
    assertTrue(new ObjectMapper().readTree(facts).isObject());
  }

  /** Spec words are written as the spec spells them: a renamed Java constant moves no bundle. */
  @Test
  void theCanonicalFormWritesSpecWordsAsSpelt() {
    ClusterSpec spec =
        TestSpecs.parse(
            """
            apiVersion: gpugen/v1
            kind: GpuCluster
            metadata: {name: demo}
            cloud: {provider: aws, region: us-west-2}
            pools: [{name: gpu, instanceType: p4d.24xlarge, market: spot}]
            software: {driver: "570.195.03", cuda: "12.8"}
            """);
    String json = Canonical.json(spec, java.util.Set.of());
    assertTrue(json.contains("\"market\":\"spot\""), json);
    assertTrue(!json.contains("SPOT"), json);
  }
}
