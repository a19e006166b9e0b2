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
        - {name: h100-mega, instanceType: a3-megagpu-8g, count: 1}
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
        gke: {cluster: ft, gpuDriver: operator, authorizedNetworks: [203.0.113.0/24]}
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
    assertTrue(gitops.tfvars("in-cluster").path("argocd_enabled").asBoolean(false));
    assertFalse(push.tfvars("in-cluster").path("argocd_enabled").asBoolean(true));
    assertTrue(gitops.tfvars("in-cluster").path("gpu_operator_version").isMissingNode());
    assertTrue(gitops.tfvars("in-cluster").path("gpu_operator_values").isMissingNode());
    assertTrue(gitops.tfvars("in-cluster").path("nccl_env").isMissingNode());
    assertTrue(push.tfvars("in-cluster").path("gpu_operator_version").isTextual());
    Map<String, JsonNode> parsed = gitops.parsed();
    assertEquals(
        "${var.gpu_operator_enabled && !var.argocd_enabled ? 1 : 0}",
        parsed
            .get("in-cluster/gke-gpu-operator.tf")
            .path("resource")
            .path("helm_release")
            .path("gpu_operator")
            .path(0)
            .path("count")
            .asText());
    JsonNode nccl = parsed.get("in-cluster/gke-nccl.tf").path("resource");
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
            .get("in-cluster/gke-gpu-operator.tf")
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
                          operator
                              ? "INSTALLATION_DISABLED"
                              : r.spec().cloud().gke().orElseThrow().gpuDriverVersion().name(),
                          v.path("gpu_driver_version").asText());
                      assertEquals(
                          operator,
                          r.tfvars("in-cluster").path("gpu_operator_enabled").asBoolean());
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
                      // One node pool per entry of var.pools, each with auto-upgrade on, as GKE
                      // requires in a release channel (the maintenance exclusion holds it).
                      JsonNode pools =
                          r.parsed()
                              .get("gke-node-pools.tf")
                              .path("resource")
                              .path("google_container_node_pool");
                      assertEquals(List.of("pools", "system"), List.copyOf(fieldNames(pools)));
                      JsonNode pool = pools.path("pools").get(0);
                      assertEquals("${var.pools}", pool.path("for_each").asText());
                      assertEquals("${each.key}", pool.path("name").asText());
                      assertTrue(
                          pool.path("management").get(0).path("auto_upgrade").asBoolean(false));
                    }));
  }

  /** gpuDriverVersion asks GKE for the node image's default or newest driver. */
  @Test
  void gpuDriverVersionChoosesGkesInstallationConfig() {
    String latest =
        GKE_DRIVER.replace("gpuDriver: gke}", "gpuDriver: gke, gpuDriverVersion: latest}");
    assertTrue(latest.contains("latest"), "the spec asks for the latest driver");
    assertEquals(
        "LATEST",
        Rendered.of("gke-latest", latest.getBytes(StandardCharsets.UTF_8))
            .tfvars()
            .path("gpu_driver_version")
            .asText());
    assertEquals(
        "DEFAULT",
        Rendered.of("gke-default", GKE_DRIVER.getBytes(StandardCharsets.UTF_8))
            .tfvars()
            .path("gpu_driver_version")
            .asText());
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
    JsonNode in = operator.tfvars("in-cluster");
    assertEquals(4, in.path("time_slicing_replicas").path("l4-infer").asInt());
    assertEquals(1, in.path("time_slicing_replicas").size(), "only the pool that shares");
    JsonNode pools = v.path("pools");
    assertEquals(
        "l4-infer",
        pools.path("l4-infer").path("labels").path("nvidia.com/device-plugin.config").asText());
    assertFalse(pools.path("h100").path("labels").has("nvidia.com/device-plugin.config"));
    assertEquals(
        "time-slicing-config",
        in.path("gpu_operator_values").path("devicePlugin").path("config").path("name").asText());
    assertTrue(
        pools.path("l4-infer").path("time_sharing_clients").isMissingNode(),
        "GKE's plugin is off here");
    JsonNode cm =
        operator
            .parsed()
            .get("in-cluster/gke-gpu-operator.tf")
            .path("resource")
            .path("kubernetes_config_map_v1")
            .path("time_slicing");
    assertFalse(cm.isMissingNode(), "the ConfigMap is rendered");
    // With GKE's device plugin: GKE's time-sharing on that pool's accelerator, no ConfigMap entry.
    JsonNode gke = all().toList().get(1).tfvars();
    assertEquals(3, gke.path("pools").path("g2").path("time_sharing_clients").asInt());
    assertTrue(gke.path("pools").path("l4").path("time_sharing_clients").isMissingNode());
    JsonNode gkeIn = all().toList().get(1).tfvars("in-cluster");
    assertEquals(0, gkeIn.path("time_slicing_replicas").size());
    assertTrue(gkeIn.path("gpu_operator_values").path("devicePlugin").isMissingNode());
    assertEquals(1, gke.path("pools").path("g2").path("accelerator_count").asInt());
  }

  /**
   * The node pools set workload_metadata_config GKE_METADATA, which GKE refuses on a cluster
   * without Workload Identity: the existing cluster's lookup fails first, with the command that
   * turns it on.
   */
  @RealToolsTest
  @Test
  void anExistingClusterWithoutWorkloadIdentityIsRefusedBeforeAnyPool() {
    Rendered r = all().toList().get(1);
    JsonNode existing =
        r.parsed()
            .get("gke-cluster.tf")
            .path("data")
            .path("google_container_cluster")
            .path("existing")
            .get(0);
    JsonNode post = existing.path("lifecycle").get(0).path("postcondition").get(0);
    assertEquals(
        "${try(self.workload_identity_config[0].workload_pool, \"\") != \"\"}",
        post.path("condition").asText());
    assertTrue(
        post.path("error_message").asText().contains("--workload-pool=${var.project}.svc.id.goog"),
        post::toString);
    JsonNode pools =
        r.parsed().get("gke-node-pools.tf").path("resource").path("google_container_node_pool");
    assertEquals(
        "GKE_METADATA",
        pools
            .path("pools")
            .get(0)
            .path("node_config")
            .get(0)
            .path("workload_metadata_config")
            .get(0)
            .path("mode")
            .asText());
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
            .get("in-cluster/gke-nccl.tf")
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
        r.parsed().get("in-cluster/gke-nccl.tf").path("resource").has("kubernetes_config_map_v1"),
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

  private static final Path GOLDEN = Path.of("src/test/resources/golden/gcp-gke/spec.yaml");
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /** The golden GKE spec with {@code from} replaced by {@code to}. */
  private static Rendered variant(String label, String from, String to) throws Exception {
    String golden = java.nio.file.Files.readString(GOLDEN);
    String spec = golden.replace(from, to);
    assertFalse(golden.equals(spec), "the variant changes the spec: " + from);
    return Rendered.of(label, spec.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The GPU Operator chart's values.yaml at the release gpugen pins on GKE (v25.10.1), copied from
   * NVIDIA/gpu-operator deployments/gpu-operator/values.yaml at that tag.
   */
  private static JsonNode chartValues() throws Exception {
    return new com.fasterxml.jackson.databind.ObjectMapper(
            new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
        .readTree(Path.of("src/test/resources/charts/gpu-operator-v25.10.1/values.yaml").toFile());
  }

  /**
   * The cluster is enrolled in a release channel at a pinned version, and every node pool keeps
   * auto-upgrade on, which GKE requires in a channel; a maintenance exclusion of scope
   * NO_MINOR_OR_NODE_UPGRADES holds minor and node upgrades until the end of standard support of
   * the version's minor (gpugen's table: GKE 1.35 until 2027-04-11). The render before this had
   * channel UNSPECIFIED, no version and auto_upgrade false, which GKE refuses in a channel.
   */
  @RealToolsTest
  @Test
  void theClusterIsPinnedInAReleaseChannelAndHeldByAMaintenanceExclusion() {
    Rendered r = all().findFirst().orElseThrow();
    JsonNode v = r.tfvars();
    assertEquals("REGULAR", v.path("gke_release_channel").asText());
    assertEquals("1.35", v.path("gke_version").asText());
    assertEquals("2027-04-11", v.path("gke_hold_upgrades_until").asText());
    JsonNode cluster =
        r.parsed()
            .get("gke-cluster.tf")
            .path("resource")
            .path("google_container_cluster")
            .path("this")
            .get(0);
    assertEquals(
        "${var.gke_release_channel}",
        cluster.path("release_channel").get(0).path("channel").asText());
    assertEquals("${var.gke_version}", cluster.path("min_master_version").asText());
    JsonNode policy = cluster.path("maintenance_policy").get(0);
    // The provider refuses exclusions without exactly one window (ExactlyOneOf
    // daily_maintenance_window / recurring_window, hashicorp/terraform-provider-google
    // google/services/container/resource_container_cluster.go).
    assertEquals(
        1,
        (policy.has("daily_maintenance_window") ? 1 : 0) + (policy.has("recurring_window") ? 1 : 0),
        policy::toString);
    JsonNode exclusion = policy.path("maintenance_exclusion").get(0);
    assertEquals(
        "NO_MINOR_OR_NODE_UPGRADES",
        exclusion.path("exclusion_options").get(0).path("scope").asText());
    assertTrue(
        exclusion.path("end_time").asText().contains("var.gke_hold_upgrades_until"),
        exclusion::toString);
    JsonNode pools =
        r.parsed().get("gke-node-pools.tf").path("resource").path("google_container_node_pool");
    for (String pool : List.of("pools", "system")) {
      assertTrue(
          pools.path(pool).get(0).path("management").get(0).path("auto_upgrade").asBoolean(false),
          pool);
    }
  }

  /**
   * A small untainted CPU pool by default on GKE, and the GPU Operator's DaemonSets and NFD worker
   * tolerate every pool taint besides the chart's own defaults (nvidia.com/gpu): before, a pool
   * tainted with anything else got no driver and no device plugin, and with every pool tainted the
   * operator's Deployment had nowhere to run.
   */
  @RealToolsTest
  @Test
  void aSystemPoolByDefaultAndTheOperatorToleratesEveryPoolTaint() throws Exception {
    Rendered r =
        variant(
            "gke-dedicated-taint",
            "    labels: {workload-type: batch}\n",
            "    labels: {workload-type: batch}\n"
                + "    taints: [{key: dedicated, value: batch, effect: NoSchedule}]\n");
    JsonNode pool = r.tfvars().path("system_pool");
    assertEquals("e2-standard-4", pool.path("machine_type").asText(), pool.toString());
    assertEquals(2, pool.path("node_count").asInt(), pool.toString());
    assertEquals(50, pool.path("disk_size_gb").asInt(), pool.toString());
    assertTrue(pool.path("autoscaling").isNull(), "no autoscaling unless written: " + pool);
    Rendered scaled =
        variant(
            "gke-system-autoscaled",
            "  systemPool: {enabled: true}\n",
            "  systemPool: {autoscaling: {min: 1, max: 3}, diskSizeGb: 80}\n");
    assertEquals(
        Map.of("min", 1, "max", 3),
        JSON.convertValue(scaled.tfvars().path("system_pool").path("autoscaling"), Map.class));
    assertEquals(80, scaled.tfvars().path("system_pool").path("disk_size_gb").asInt());
    Rendered noKey =
        variant("gke-system-default", "kubernetes:\n  systemPool: {enabled: true}\n", "");
    assertEquals(
        "e2-standard-4",
        noKey.tfvars().path("system_pool").path("machine_type").asText(),
        "on by default on GKE");
    JsonNode system =
        r.parsed()
            .get("gke-node-pools.tf")
            .path("resource")
            .path("google_container_node_pool")
            .path("system")
            .get(0);
    assertTrue(system.path("node_config").get(0).path("taint").isMissingNode(), "untainted");
    assertTrue(
        system.path("node_config").get(0).path("guest_accelerator").isMissingNode(), "no GPU");

    JsonNode values = r.tfvars("in-cluster").path("gpu_operator_values");
    JsonNode chart = chartValues();
    JsonNode dedicated =
        JSON.valueToTree(
            Map.of(
                "key", "dedicated", "operator", "Equal", "value", "batch", "effect", "NoSchedule"));
    com.fasterxml.jackson.databind.node.ArrayNode daemonsets =
        chart.path("daemonsets").path("tolerations").deepCopy();
    daemonsets.add(dedicated);
    assertEquals(
        daemonsets,
        values.path("daemonsets").path("tolerations"),
        "the chart's default, then the pool's taint");
    com.fasterxml.jackson.databind.node.ArrayNode worker =
        chart.path("node-feature-discovery").path("worker").path("tolerations").deepCopy();
    worker.add(dedicated);
    assertEquals(worker, values.path("node-feature-discovery").path("worker").path("tolerations"));
  }

  /**
   * The ResourceQuota that admits the operator's system-node-critical pods is sized from the pools'
   * maxima: about eight operator pods per GPU node (the chart's operand DaemonSets and the NFD
   * worker), so a fixed 100 pods left nodes beyond the twelfth without a device plugin.
   */
  @RealToolsTest
  @Test
  void theOperatorsPodQuotaCoversEveryPoolAtItsMaximum() throws Exception {
    Rendered r =
        variant(
            "gke-big-pool",
            "    count: 2\n    market: spot\n",
            "    count: 2\n    autoscaling: {min: 2, max: 32}\n    market: spot\n");
    int quota = r.tfvars("in-cluster").path("gpu_operator_pod_quota").asInt();
    int gpuNodes = 1 + 32 + 2;
    assertTrue(quota >= gpuNodes * 8 + 3, "quota " + quota + " for " + gpuNodes + " GPU nodes");
    JsonNode hard =
        r.parsed()
            .get("in-cluster/gke-gpu-operator.tf")
            .path("resource")
            .path("kubernetes_resource_quota_v1")
            .path("gpu_operator")
            .get(0)
            .path("spec")
            .get(0)
            .path("hard");
    assertEquals("${tostring(var.gpu_operator_pod_quota)}", hard.path("pods").asText());
  }

  /**
   * software.containerToolkit is the operator's toolkit.version (the chart's image tag, with the
   * v), with RUNTIME_CONFIG_SOURCE=file, which toolkit 1.18.0+ reads on GKE's containerd 2; and
   * every key gpugen sets on GKE is one the chart at the pinned release has (NVIDIA's values.yaml
   * at v25.10.1), so none is silently ignored.
   */
  @RealToolsTest
  @Test
  void theOperatorValuesUseTheSpecsToolkitAndOnlyTheChartsKeys() throws Exception {
    Rendered r =
        variant(
            "gke-dedicated-taint",
            "    labels: {workload-type: batch}\n",
            "    labels: {workload-type: batch}\n"
                + "    taints: [{key: dedicated, value: batch, effect: NoSchedule}]\n");
    JsonNode values = r.tfvars("in-cluster").path("gpu_operator_values");
    JsonNode chart = chartValues();
    assertEquals("v1.18.1", values.path("toolkit").path("version").asText());
    assertEquals(
        chart.path("toolkit").path("version").asText(),
        values.path("toolkit").path("version").asText(),
        "the toolkit v25.10.1 ships");
    assertEquals(
        "RUNTIME_CONFIG_SOURCE", values.path("toolkit").path("env").path(0).path("name").asText());
    assertEquals("file", values.path("toolkit").path("env").path(0).path("value").asText());
    List<String> unknown = new ArrayList<>();
    keysNotIn(values, chart, "", unknown);
    assertEquals(List.of(), unknown, "keys the chart does not have");
  }

  private static void keysNotIn(JsonNode ours, JsonNode chart, String at, List<String> out) {
    ours.fieldNames()
        .forEachRemaining(
            k -> {
              JsonNode theirs = chart.get(k);
              if (theirs == null) {
                out.add(at + k);
              } else if (ours.get(k).isObject() && theirs.isObject() && theirs.size() > 0) {
                keysNotIn(ours.get(k), theirs, at + k + ".", out);
              }
            });
  }

  /**
   * Private nodes, an endpoint only the authorized networks reach, the nodes' own service account
   * with roles/container.defaultNodeServiceAccount, and a VPC of the cluster's own: before, nodes
   * had public addresses, the endpoint was open, the nodes ran as the Compute Engine default
   * service account and the cluster used the project's default network.
   */
  @RealToolsTest
  @Test
  void privateNodesAnAuthorizedEndpointAnOwnServiceAccountAndAnOwnVpc() {
    Rendered r = all().findFirst().orElseThrow();
    assertEquals(
        List.of("203.0.113.0/24"),
        JSON.convertValue(r.tfvars().path("gke_authorized_networks"), List.class));
    JsonNode cluster =
        r.parsed()
            .get("gke-cluster.tf")
            .path("resource")
            .path("google_container_cluster")
            .path("this")
            .get(0);
    assertTrue(
        cluster.path("private_cluster_config").get(0).path("enable_private_nodes").asBoolean());
    JsonNode authorized = cluster.path("master_authorized_networks_config").get(0);
    assertFalse(authorized.path("gcp_public_cidrs_access_enabled").asBoolean(true));
    assertEquals(
        "${var.gke_authorized_networks}",
        authorized.path("dynamic").path("cidr_blocks").get(0).path("for_each").asText());
    assertEquals("${google_compute_network.this[0].id}", cluster.path("network").asText());
    JsonNode pools =
        r.parsed().get("gke-node-pools.tf").path("resource").path("google_container_node_pool");
    for (String pool : List.of("pools", "system")) {
      assertEquals(
          "${google_service_account.nodes.email}",
          pools.path(pool).get(0).path("node_config").get(0).path("service_account").asText(),
          pool);
    }
    JsonNode member =
        r.parsed()
            .get("gke-iam.tf")
            .path("resource")
            .path("google_project_iam_member")
            .path("nodes")
            .get(0);
    assertEquals("roles/container.defaultNodeServiceAccount", member.path("role").asText());
  }

  /**
   * A pool may consume a specific reservation (reservation_affinity SPECIFIC_RESERVATION with the
   * reservation's name) or have Dynamic Workload Scheduler provision it (flex-start, or queued
   * provisioning); neither gets compact placement.
   */
  @RealToolsTest
  @Test
  void aPoolConsumesItsReservationOrDynamicWorkloadSchedulersCapacity() throws Exception {
    Rendered r =
        variant(
            "gke-capacity",
            "    count: 2\n    market: spot\n",
            "    count: 2\n    reservation: a100-res\n");
    JsonNode a100 = r.tfvars().path("pools").path("a100-spot");
    assertEquals("a100-res", a100.path("reservation").asText());
    assertFalse(a100.path("compact_placement").asBoolean(true), "placed as reserved");
    Rendered flex =
        variant(
            "gke-flex",
            "    count: 2\n    market: spot\n",
            "    count: 0\n    autoscaling: {min: 0, max: 4}\n    market: flex-start-queued\n");
    assertEquals(
        "flex-start-queued", flex.tfvars().path("pools").path("a100-spot").path("market").asText());
    JsonNode pool =
        r.parsed()
            .get("gke-node-pools.tf")
            .path("resource")
            .path("google_container_node_pool")
            .path("pools")
            .get(0);
    JsonNode affinity =
        pool.path("node_config").get(0).path("dynamic").path("reservation_affinity").get(0);
    assertTrue(
        affinity.path("for_each").asText().contains("SPECIFIC_RESERVATION"), affinity::toString);
    JsonNode content = affinity.path("content").get(0);
    assertTrue(
        content.path("key").asText().contains("compute.googleapis.com/reservation-name"),
        content::toString);
    assertTrue(
        pool.path("dynamic")
            .path("queued_provisioning")
            .get(0)
            .path("for_each")
            .asText()
            .contains("flex-start-queued"));
    assertTrue(pool.path("node_config").get(0).path("flex_start").asText().contains("flex-start"));
    // Play 05 runs no plain Job on a queued provisioning pool (it would stay Pending): it says why.
    GkeChecksView view = new GkeChecksView(dev.gpugen.TestSpecs.plan(flex.spec()));
    assertTrue(
        view.pool("a100-spot").skipReason().contains("ProvisioningRequest"),
        view.pool("a100-spot")::toString);
    assertEquals(
        "", new GkeChecksView(dev.gpugen.TestSpecs.plan(r.spec())).pool("a100-spot").skipReason());
  }

  /**
   * The cluster's root module configures no kubernetes or helm provider and creates nothing on the
   * cluster; in-cluster/ does, with providers configured from a data source of the cluster, which
   * exists when it is applied (HashiCorp's kubernetes provider documentation warns against
   * credentials from a cluster created in the same configuration).
   */
  @RealToolsTest
  @Test
  void theClusterAndWhatRunsOnItAreTwoRootModules() {
    Rendered r = all().findFirst().orElseThrow();
    Map<String, JsonNode> root = r.parsed("");
    for (Map.Entry<String, JsonNode> e : root.entrySet()) {
      JsonNode body = e.getValue();
      assertTrue(body.path("provider").path("kubernetes").isMissingNode(), e.getKey());
      assertTrue(body.path("provider").path("helm").isMissingNode(), e.getKey());
      body.path("resource")
          .fieldNames()
          .forEachRemaining(
              type ->
                  assertFalse(
                      type.startsWith("kubernetes_") || type.startsWith("helm_"),
                      e.getKey() + ": " + type));
    }
    Map<String, JsonNode> in = r.parsed("in-cluster");
    JsonNode providers = in.get("in-cluster/gke-providers.tf");
    assertTrue(
        providers
            .path("provider")
            .path("kubernetes")
            .get(0)
            .path("host")
            .asText()
            .contains("data.google_container_cluster.this.endpoint"));
    assertTrue(in.get("in-cluster/gke-gpu-operator.tf").path("resource").has("helm_release"));
    assertEquals(List.of("", "in-cluster"), r.roots());
  }
}
