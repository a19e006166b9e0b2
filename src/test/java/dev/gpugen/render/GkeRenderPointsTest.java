package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.Cli;
import dev.gpugen.compat.CompatTable;
import dev.gpugen.compat.GpuOperatorRelease;
import dev.gpugen.compat.Version;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One check per numbered point of the GKE rework, run on a rendered folder: each passes on today's
 * render of the gcp-gke golden and fails on the render gpugen made before the rework
 * (src/test/resources/gke-before-rework, frozen), so every point has a test the old render would
 * not pass. Two points live in gpugen's code rather than its output and are tested there: {@code
 * gpugen up}'s kubeconfig step and gcloud checks (UpDownCommandTest) and the refusal of a
 * multi-node A3 pool without GPUDirect (gcp-a3-without-gpudirect, an error: DiagnosticGoldenTest).
 */
class GkeRenderPointsTest {
  private static final Path BEFORE = Path.of("src/test/resources/gke-before-rework");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path out;
  private static SortedMap<String, String> today;
  private static SortedMap<String, String> before;

  @BeforeAll
  static void render() throws IOException {
    Path dir = out.resolve("gcp-gke");
    Cli cli =
        Cli.run("render", "src/test/resources/golden/gcp-gke/spec.yaml", "-o", dir.toString());
    assertEquals(0, cli.exit(), cli.toString());
    today = files(dir);
    today.put(
        "spec.yaml", Files.readString(Path.of("src/test/resources/golden/gcp-gke/spec.yaml")));
    before = files(BEFORE);
  }

  /** The points, by number: what each requires of a render; empty when it holds. */
  static Map<Integer, Function<SortedMap<String, String>, Optional<String>>> points() {
    Map<Integer, Function<SortedMap<String, String>, Optional<String>>> p = new LinkedHashMap<>();
    p.put(1, GkeRenderPointsTest::toolkitReadsContainerdsFileOnAPinnedVersion);
    p.put(2, GkeRenderPointsTest::autoUpgradeOnAndAMaintenanceExclusion);
    p.put(3, GkeRenderPointsTest::aSystemPool);
    p.put(4, GkeRenderPointsTest::aQuotaFromThePoolsMaxima);
    p.put(6, GkeRenderPointsTest::everyNcclJobMountsTheNodesNcclConf);
    p.put(7, GkeRenderPointsTest::aPinnedChannelAndVersion);
    p.put(8, GkeRenderPointsTest::theSpecsToolkitIsTheOperators);
    p.put(9, GkeRenderPointsTest::theDcgmClientIsTheOperatorsHostEngine);
    p.put(10, GkeRenderPointsTest::aMultiNodeAllReduceForAMultiNodePool);
    p.put(11, GkeRenderPointsTest::privateNodesAnAuthorizedEndpointAnOwnAccountAndVpc);
    p.put(12, GkeRenderPointsTest::reservationsAndFlexStart);
    p.put(14, GkeRenderPointsTest::theClusterAndWhatRunsOnItAreApart);
    return p;
  }

  @Test
  void everyPointHoldsOnTodaysRender() {
    List<String> problems = new ArrayList<>();
    points().forEach((n, check) -> check.apply(today).ifPresent(m -> problems.add(n + ": " + m)));
    assertEquals(List.of(), problems);
  }

  @Test
  void everyPointFailsOnTheRenderBeforeTheRework() {
    List<Integer> held = new ArrayList<>();
    points().forEach((n, check) -> check.apply(before).ifPresentOrElse(m -> {}, () -> held.add(n)));
    assertEquals(List.of(), held, "points the old render already met: their checks prove nothing");
  }

  @Test
  void theOldRenderIsTheFrozenOne() {
    // A regenerated fixture would make the previous test meaningless.
    assertTrue(before.get("terraform/gke-node-pools.tf").contains("auto_upgrade = false"));
    assertTrue(before.containsKey("spec.yaml"));
  }

  // 1: GKE 1.33+ needs the toolkit that reads containerd's file (1.18.0 on), checked against a
  // pinned GKE version.
  static Optional<String> toolkitReadsContainerdsFileOnAPinnedVersion(SortedMap<String, String> r) {
    JsonNode toolkit = operatorValues(r).path("toolkit");
    boolean file =
        toolkit.path("env").findValues("value").stream().anyMatch(v -> v.asText().equals("file"));
    String version = toolkit.path("version").asText("");
    if (!file || version.isEmpty()) {
      return Optional.of("toolkit " + toolkit + ": RUNTIME_CONFIG_SOURCE=file and a version");
    }
    if (Version.parse(version.replaceFirst("^v", "")).compareTo(Version.parse("1.18.0")) < 0) {
      return Optional.of("toolkit " + version + " does not read RUNTIME_CONFIG_SOURCE");
    }
    return tf(r).contains("min_master_version")
        ? Optional.empty()
        : Optional.of("no GKE version pinned (min_master_version)");
  }

  // 2: node auto-upgrade stays on (GKE refuses it off in a release channel); a maintenance
  // exclusion holds versions.
  static Optional<String> autoUpgradeOnAndAMaintenanceExclusion(SortedMap<String, String> r) {
    String tf = tf(r);
    if (tf.matches("(?s).*auto_upgrade\\s*=\\s*false.*")) {
      return Optional.of("auto_upgrade = false");
    }
    return tf.contains("NO_MINOR_OR_NODE_UPGRADES")
        ? Optional.empty()
        : Optional.of("no maintenance exclusion of scope NO_MINOR_OR_NODE_UPGRADES");
  }

  // 3: a small untainted CPU pool for kube-system and the controllers.
  static Optional<String> aSystemPool(SortedMap<String, String> r) {
    boolean resource = tf(r).contains("resource \"google_container_node_pool\" \"system\"");
    boolean value = tfvars(r, "").path("system_pool").path("machine_type").isTextual();
    return resource && value ? Optional.empty() : Optional.of("no system node pool");
  }

  // 4: the operator's ResourceQuota admits its pods on every GPU node at the pools' maxima.
  static Optional<String> aQuotaFromThePoolsMaxima(SortedMap<String, String> r) {
    if (tf(r).matches("(?s).*pods\\s*=\\s*\"[0-9]+\".*")) {
      return Optional.of("a fixed pods quota");
    }
    int nodes = 0;
    for (JsonNode pool : tfvars(r, "").path("pools")) {
      JsonNode a = pool.path("autoscaling");
      nodes += a.isObject() ? a.path("max").asInt() : pool.path("node_count").asInt();
    }
    int quota = tfvars(r, "in-cluster").path("gpu_operator_pod_quota").asInt(0);
    // At least the seven operand pods each GPU node runs.
    return quota >= 7 * nodes
        ? Optional.empty()
        : Optional.of("quota " + quota + " below 7 pods x " + nodes + " GPU nodes");
  }

  // 6: NCCL reads the file inside the container: every Job that runs NCCL mounts the node's.
  static Optional<String> everyNcclJobMountsTheNodesNcclConf(SortedMap<String, String> r) {
    List<String> missing = new ArrayList<>();
    r.forEach(
        (path, text) -> {
          if (path.startsWith("ansible/roles/gke_checks/templates/")
              && text.contains("gke_checks_nccl_image")
              && !text.contains("mountPath: /etc/nccl.conf")) {
            missing.add(path);
          }
        });
    return missing.isEmpty()
        ? Optional.empty()
        : Optional.of("NCCL Jobs without /etc/nccl.conf: " + missing);
  }

  // 7: a release channel other than UNSPECIFIED and a version.
  static Optional<String> aPinnedChannelAndVersion(SortedMap<String, String> r) {
    if (tf(r).contains("channel = \"UNSPECIFIED\"")) {
      return Optional.of("release channel UNSPECIFIED");
    }
    JsonNode v = tfvars(r, "");
    return v.path("gke_release_channel").isTextual() && v.path("gke_version").isTextual()
        ? Optional.empty()
        : Optional.of("no pinned channel and version in the tfvars");
  }

  // 8: software.containerToolkit becomes the operator's toolkit version.
  static Optional<String> theSpecsToolkitIsTheOperators(SortedMap<String, String> r) {
    Matcher m = Pattern.compile("containerToolkit: \"([0-9.]+)\"").matcher(r.get("spec.yaml"));
    if (!m.find()) {
      return Optional.of("the spec names no containerToolkit");
    }
    String version = operatorValues(r).path("toolkit").path("version").asText("");
    return version.equals("v" + m.group(1))
        ? Optional.empty()
        : Optional.of("toolkit version '" + version + "', spec " + m.group(1));
  }

  // 9: the validation Job's dcgmi is the operator's DCGM host engine release.
  static Optional<String> theDcgmClientIsTheOperatorsHostEngine(SortedMap<String, String> r) {
    String image =
        yamlValue(r.get("ansible/group_vars/all.yml"), "gke_checks_dcgm_image")
            .or(
                () ->
                    yamlValue(
                        r.get("ansible/roles/gke_checks/defaults/main.yml"),
                        "gke_checks_dcgm_image"))
            .orElse("");
    String operator = tfvars(r, "in-cluster").path("gpu_operator_version").asText("");
    if (operator.isEmpty()) {
      operator = tfvars(r, "").path("gpu_operator_version").asText("");
    }
    Optional<String> dcgm =
        CompatTable.load()
            .gpuOperator(Version.parse(operator.replaceFirst("^v", "")))
            .flatMap(GpuOperatorRelease::dcgm);
    String want = GpuOperatorRelease.DCGM_IMAGE + ":" + dcgm.orElse("?");
    return image.equals(want)
        ? Optional.empty()
        : Optional.of("dcgmi image " + image + ", operator " + operator + " runs " + want);
  }

  // 10: a pool of several nodes gets an all-reduce across them.
  static Optional<String> aMultiNodeAllReduceForAMultiNodePool(SortedMap<String, String> r) {
    boolean task = r.containsKey("ansible/roles/gke_checks/tasks/multinode.yml");
    boolean pool =
        r.entrySet().stream()
            .anyMatch(
                e ->
                    e.getKey().startsWith("ansible/group_vars/pool_")
                        && e.getValue().matches("(?s).*gke_checks_multi_node: [2-9].*"));
    return task && pool ? Optional.empty() : Optional.of("no multi-node all-reduce");
  }

  // 11: private nodes, an endpoint for named networks, a node service account and a VPC of its own.
  static Optional<String> privateNodesAnAuthorizedEndpointAnOwnAccountAndVpc(
      SortedMap<String, String> r) {
    String tf = tf(r);
    List<String> missing = new ArrayList<>();
    for (String s :
        List.of(
            "enable_private_nodes",
            "master_authorized_networks_config",
            "resource \"google_service_account\"",
            "resource \"google_compute_network\"")) {
      if (!tf.contains(s)) {
        missing.add(s);
      }
    }
    return missing.isEmpty() ? Optional.empty() : Optional.of("missing " + missing);
  }

  // 12: specific reservations and DWS flex-start / queued provisioning.
  static Optional<String> reservationsAndFlexStart(SortedMap<String, String> r) {
    String tf = tf(r);
    return tf.contains("reservation_affinity")
            && tf.contains("flex_start")
            && tf.contains("queued_provisioning")
        ? Optional.empty()
        : Optional.of("no reservation_affinity, flex_start or queued_provisioning");
  }

  // 14: the cluster's root module configures no kubernetes or helm provider.
  static Optional<String> theClusterAndWhatRunsOnItAreApart(SortedMap<String, String> r) {
    StringBuilder root = new StringBuilder();
    r.forEach(
        (path, text) -> {
          if (path.matches("terraform/[^/]+\\.tf")) {
            root.append(text);
          }
        });
    return root.toString()
            .matches("(?s).*(provider \"(kubernetes|helm)\"|resource \"(kubernetes|helm)_).*")
        ? Optional.of("the cluster's root module configures kubernetes or helm")
        : Optional.empty();
  }

  private static String tf(SortedMap<String, String> r) {
    StringBuilder b = new StringBuilder();
    r.forEach(
        (path, text) -> {
          if (path.startsWith("terraform/") && path.endsWith(".tf")) {
            b.append(text).append('\n');
          }
        });
    return b.toString();
  }

  /** The tfvars of root module {@code root} ("" or in-cluster); missing when there is none. */
  private static JsonNode tfvars(SortedMap<String, String> r, String root) {
    String text =
        r.get("terraform/" + (root.isEmpty() ? "" : root + "/") + "terraform.tfvars.json");
    try {
      return text == null ? JSON.missingNode() : JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The GPU Operator's chart values, from whichever root module installs it. */
  private static JsonNode operatorValues(SortedMap<String, String> r) {
    JsonNode v = tfvars(r, "in-cluster").path("gpu_operator_values");
    return v.isMissingNode() ? tfvars(r, "").path("gpu_operator_values") : v;
  }

  private static Optional<String> yamlValue(String yaml, String key) {
    if (yaml == null) {
      return Optional.empty();
    }
    Matcher m = Pattern.compile("(?m)^" + key + ": (?:!unsafe )?\"?([^\"\\n]+)\"?$").matcher(yaml);
    return m.find() ? Optional.of(m.group(1).trim()) : Optional.empty();
  }

  private static SortedMap<String, String> files(Path dir) throws IOException {
    SortedMap<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        out.put(
            dir.relativize(p).toString().replace('\\', '/'),
            new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
      }
    }
    return out;
  }
}
