package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gpugen.compat.CompatTable;
import dev.gpugen.compat.GcpMachineType;
import dev.gpugen.testing.RealToolsTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Terraform for GKE: parsed by HashiCorp's parser, every name checked against the google, helm and
 * kubernetes provider schemas, the accelerators taken from the compatibility table, the driver
 * install consistent with the operator choice, and /etc/nccl.conf written on the host.
 */
class GkeTerraformTest {
  static final ProviderSchema GKE = ProviderSchema.gke();

  static final String GKE_DRIVER =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: l4-serve}
      cloud:
        provider: gcp
        project: serving-prod-1
        region: europe-west4
        gke: {cluster: shared-gke, create: false, gpuDriver: gke}
      pools:
        - name: l4
          instanceType: a2-highgpu-1g
          count: 1
        - {name: h100-mega, instanceType: a3-megagpu-8g, count: 2}
        - name: g2
          instanceType: g2-standard-8
          software: {devicePlugin: {timeSlicingReplicas: 3}}
      software: {driver: "580.95.05", cuda: "12.8"}
      """;

  /** The golden GKE spec with its cluster-side components handed to ArgoCD. */
  static final String GKE_GITOPS =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: gke-ft}
      cloud:
        provider: gcp
        project: ml-finetune-1
        region: us-central1
        gke: {cluster: ft, gpuDriver: operator}
      pools:
        - {name: a100, instanceType: a2-ultragpu-8g, count: 2}
      software: {driver: "580.95.05", cuda: "12.8"}
      nccl:
        env: {NCCL_DEBUG: WARN}
      gitops:
        argocd: {repoURL: "https://git.example.com/ml/gke-ft.git", targetRevision: v1.0.0}
      """;

  static Stream<Rendered> all() {
    return Stream.of(
        Rendered.of(Path.of("src/test/resources/golden/gcp-gke/spec.yaml")),
        Rendered.of("gke-driver-existing-cluster", GKE_DRIVER.getBytes(StandardCharsets.UTF_8)),
        Rendered.of("gke-gitops", GKE_GITOPS.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * With gitops.argocd, ArgoCD installs the chart and writes nccl.conf (argocd/ in the render), so
   * Terraform must not: argocd_enabled counts the helm_release and the NCCL ConfigMap and DaemonSet
   * down to none, and gpugen writes no chart version or values; the operator's namespace, quota and
   * time-slicing ConfigMap stay. Without it, Terraform has both, so this can fail.
   */
  @RealToolsTest
  @Test
  void withGitOpsTerraformLeavesTheOperatorAndNcclToArgoCd() {
    Rendered gitops = Rendered.of("gke-gitops", GKE_GITOPS.getBytes(StandardCharsets.UTF_8));
    Rendered push =
        Rendered.of(
            "gke-push",
            GKE_GITOPS.replaceAll("(?s)gitops:.*", "").getBytes(StandardCharsets.UTF_8));
    assertTrue(gitops.tfvars().path("argocd_enabled").asBoolean(false));
    assertFalse(push.tfvars().path("argocd_enabled").asBoolean(true));
    assertTrue(gitops.tfvars().path("gpu_operator_version").isMissingNode());
    assertTrue(gitops.tfvars().path("gpu_operator_values").isMissingNode());
    assertTrue(gitops.tfvars().path("nccl_env").isMissingNode());
    assertTrue(push.tfvars().path("gpu_operator_version").isTextual());
    Map<String, JsonNode> parsed = gitops.parsed();
    assertEquals(
        "${var.gpu_operator_enabled && !var.argocd_enabled ? 1 : 0}",
        parsed
            .get("gke-gpu-operator.tf")
            .path("resource")
            .path("helm_release")
            .path("gpu_operator")
            .path(0)
            .path("count")
            .asText());
    JsonNode nccl = parsed.get("gke-nccl.tf").path("resource");
    for (JsonNode r :
        List.of(
            nccl.path("kubernetes_config_map_v1").path("nccl").path(0),
            nccl.path("kubernetes_daemon_set_v1").path("nccl_conf").path(0))) {
      assertEquals("${var.argocd_enabled ? 0 : 1}", r.path("count").asText());
    }
    // The operator's namespace and quota stay Terraform's whatever installs the chart.
    assertEquals(
        "${var.gpu_operator_enabled ? 1 : 0}",
        parsed
            .get("gke-gpu-operator.tf")
            .path("resource")
            .path("kubernetes_resource_quota_v1")
            .path("gpu_operator")
            .path(0)
            .path("count")
            .asText());
  }

  @RealToolsTest
  @TestFactory
  Stream<DynamicTest> everyNameExistsInTheProviderSchemas() {
    return all()
        .map(
            r ->
                DynamicTest.dynamicTest(
                    r.label(),
                    () -> {
                      assertFalse(r.tf().isEmpty(), "GKE Terraform rendered");
                      assertFalse(r.tf().containsKey("instances.tf"), "no AWS files");
                      List<String> problems = new ArrayList<>();
                      r.parsed().forEach((file, body) -> problems.addAll(GKE.check(file, body)));
                      assertEquals(List.of(), problems);
                    }));
  }

  @RealToolsTest
  @TestFactory
  Stream<DynamicTest> acceleratorsComeFromTheTableAndTheDriverFromTheOperatorChoice() {
    CompatTable table = CompatTable.load();
    return all()
        .map(
            r ->
                DynamicTest.dynamicTest(
                    r.label(),
                    () -> {
                      JsonNode v = r.tfvars();
                      boolean operator = r.spec().cloud().gke().orElseThrow().operatorDriver();
                      assertEquals(
                          operator ? "INSTALLATION_DISABLED" : "DEFAULT",
                          v.path("gpu_driver_version").asText());
                      assertEquals(operator, v.path("gpu_operator_enabled").asBoolean());
                      assertEquals(r.spec().pools().size(), v.path("pools").size());
                      for (var p : r.spec().pools()) {
                        JsonNode pool = v.path("pools").path(p.name());
                        GcpMachineType m = table.gcpMachine(p.instanceType()).orElseThrow();
                        assertEquals(m.accelerator(), pool.path("accelerator_type").asText());
                        assertEquals(m.count().getAsInt(), pool.path("accelerator_count").asInt());
                        assertEquals(
                            operator,
                            pool.path("labels").has("gke-no-default-nvidia-gpu-device-plugin"),
                            "GKE's device plugin is off exactly where the operator runs");
                      }
                      // One node pool per entry of var.pools, each pinned: no auto-upgrade.
                      JsonNode pools =
                          r.parsed()
                              .get("gke-node-pools.tf")
                              .path("resource")
                              .path("google_container_node_pool");
                      assertEquals(List.of("pools"), List.copyOf(fieldNames(pools)));
                      JsonNode pool = pools.path("pools").get(0);
                      assertEquals("${var.pools}", pool.path("for_each").asText());
                      assertEquals("${each.key}", pool.path("name").asText());
                      assertFalse(
                          pool.path("management").get(0).path("auto_upgrade").asBoolean(true));
                    }));
  }

  @Test
  void aG2PoolGetsItsL4CountFromTheTableAndCompactPlacement() {
    JsonNode v = all().toList().get(0).tfvars();
    JsonNode l4 = v.path("pools").path("l4-infer");
    assertEquals("g2-standard-24", l4.path("machine_type").asText());
    assertEquals("nvidia-l4", l4.path("accelerator_type").asText());
    assertEquals(2, l4.path("accelerator_count").asInt(), "two L4s; the name says 24");
    assertTrue(l4.path("compact_placement").asBoolean(), "G2 supports compact placement");
    assertEquals("INSTALLATION_DISABLED", v.path("gpu_driver_version").asText());
  }

  @RealToolsTest
  @Test
  void timeSlicingIsTheOperatorsPerPoolConfigOrGkesOwnGpuSharing() {
    // Under the operator: one ConfigMap entry per sharing pool, picked by its nodes' label.
    Rendered operator = all().toList().get(0);
    JsonNode v = operator.tfvars();
    assertEquals(4, v.path("time_slicing_replicas").path("l4-infer").asInt());
    assertEquals(1, v.path("time_slicing_replicas").size(), "only the pool that shares");
    JsonNode pools = v.path("pools");
    assertEquals(
        "l4-infer",
        pools.path("l4-infer").path("labels").path("nvidia.com/device-plugin.config").asText());
    assertFalse(pools.path("h100").path("labels").has("nvidia.com/device-plugin.config"));
    assertEquals(
        "time-slicing-config",
        v.path("gpu_operator_values").path("devicePlugin").path("config").path("name").asText());
    assertTrue(
        pools.path("l4-infer").path("time_sharing_clients").isMissingNode(),
        "GKE's plugin is off here");
    JsonNode cm =
        operator
            .parsed()
            .get("gke-gpu-operator.tf")
            .path("resource")
            .path("kubernetes_config_map_v1")
            .path("time_slicing");
    assertFalse(cm.isMissingNode(), "the ConfigMap is rendered");
    // With GKE's device plugin: GKE's time-sharing on that pool's accelerator, no ConfigMap entry.
    JsonNode gke = all().toList().get(1).tfvars();
    assertEquals(3, gke.path("pools").path("g2").path("time_sharing_clients").asInt());
    assertTrue(gke.path("pools").path("l4").path("time_sharing_clients").isMissingNode());
    assertEquals(0, gke.path("time_slicing_replicas").size());
    assertTrue(gke.path("gpu_operator_values").path("devicePlugin").isMissingNode());
    assertEquals(1, gke.path("pools").path("g2").path("accelerator_count").asInt());
  }

  @Test
  void theMegaMachineGetsItsOwnAcceleratorNotOneSlicedFromItsName() {
    Rendered r = all().toList().get(1);
    JsonNode pools = r.tfvars().path("pools");
    assertEquals(
        "nvidia-h100-mega-80gb", pools.path("h100-mega").path("accelerator_type").asText());
    assertEquals("nvidia-tesla-a100", pools.path("l4").path("accelerator_type").asText());
    assertFalse(r.tfvars().path("gke_create_cluster").asBoolean(true));
  }

  @RealToolsTest
  @Test
  void ncclConfReachesTheHostThroughAHostPathNotTheContainer() {
    Rendered r = all().findFirst().orElseThrow();
    JsonNode ds =
        r.parsed()
            .get("gke-nccl.tf")
            .path("resource")
            .path("kubernetes_daemon_set_v1")
            .path("nccl_conf")
            .get(0)
            .path("spec")
            .get(0)
            .path("template")
            .get(0)
            .path("spec")
            .get(0);
    JsonNode hostEtc = null;
    for (JsonNode vol : ds.path("volume")) {
      if (vol.path("name").asText().equals("host-etc")) {
        hostEtc = vol;
      }
    }
    assertTrue(hostEtc != null, "a host-etc volume");
    assertEquals("/etc", hostEtc.path("host_path").get(0).path("path").asText());
    JsonNode init = ds.path("init_container").get(0);
    boolean mounted = false;
    for (JsonNode m : init.path("volume_mount")) {
      mounted |= m.path("name").asText().equals("host-etc");
    }
    assertTrue(mounted, "the writer mounts the host's /etc");
    String command = init.path("command").toString();
    assertTrue(command.contains("/host-etc/nccl.conf"), command);
    assertTrue(
        r.parsed().get("gke-nccl.tf").path("resource").has("kubernetes_config_map_v1"),
        "the settings live in a ConfigMap");
  }

  /**
   * gke-moved.tf moves each node pool of the previous layout (google_container_node_pool.POOL, '-'
   * as '_') to its key of google_container_node_pool.pools, for every pool of the spec and nothing
   * else: no Terraform with the google provider runs here, so the blocks are checked as parsed.
   */
  @RealToolsTest
  @TestFactory
  Stream<DynamicTest> everyNodePoolMovesToItsKey() {
    return all()
        .map(
            r ->
                DynamicTest.dynamicTest(
                    r.label(),
                    () -> {
                      List<String> moves = new ArrayList<>();
                      r.parsed()
                          .get("gke-moved.tf")
                          .path("moved")
                          .forEach(
                              m ->
                                  moves.add(
                                      m.path("from").asText() + " -> " + m.path("to").asText()));
                      List<String> want = new ArrayList<>();
                      for (var p : r.spec().pools()) {
                        want.add(
                            "${google_container_node_pool."
                                + p.name().replace('-', '_')
                                + "} -> ${google_container_node_pool.pools[\""
                                + p.name()
                                + "\"]}");
                        assertTrue(r.tfvars().path("pools").has(p.name()), p.name());
                      }
                      assertEquals(want, moves);
                      assertTrue(
                          r.parsed()
                              .get("gke-node-pools.tf")
                              .path("resource")
                              .path("google_container_node_pool")
                              .has("pools"));
                    }));
  }

  private static List<String> fieldNames(JsonNode n) {
    List<String> out = new ArrayList<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void theTfFilesHoldNoSpecValue() {
    Rendered r = all().findFirst().orElseThrow();
    for (Map.Entry<String, String> e : r.tf().entrySet()) {
      if (e.getKey().equals("gke-moved.tf")) {
        continue; // declarations only: the pools' addresses before and after
      }
      for (String value :
          List.of(
              "ml-platform-prod",
              "us-central1",
              "a3-highgpu-8g",
              "580.95.05",
              "l4-infer",
              "a100-spot")) {
        assertFalse(e.getValue().contains(value), e.getKey() + " contains " + value);
      }
    }
  }
}
