package dev.gpugen.render;

import static dev.gpugen.render.ValidationReports.failed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gpugen.Cli;
import dev.gpugen.Golden;
import dev.gpugen.testing.ChrootTest;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.TestRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Play 05's verdict reaches the scheduler, run for real: ansible-playbook against three chroot
 * hosts of the reference spec's H100 pool with the stand-ins of an 8 x H100 node
 * (src/test/resources/ansible-stand-ins), and {@link KubernetesStandIn} as the cluster's API. A
 * failing node is tainted {@code gpugen.dev/validation=failed:NoSchedule} with its failed checks in
 * annotations, a passing one loses its gate taint, an outlier is labelled and warned, a run that
 * skips the failed check leaves the failed node tainted, and a later run that passes the node's own
 * checks clears it even though that run's multi-node all-reduce (a check of the whole group) fails,
 * which taints none of the group's nodes; a write that races another client's is read and written
 * again (409), and the nodes of another pool and of another cluster in the same API are never
 * touched. Play 03's gate taints only nodes that never carried a verdict. The spec is the reference
 * with {@code validation.gateScheduling: true}.
 */
@ChrootTest
class ValidationSchedulingTest {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(20);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> HOSTS = List.of("node-a", "node-b", "node-c");

  @TempDir static Path rendered;
  private static Path dir;

  @TempDir Path tmp;
  private KubernetesStandIn kube;

  @BeforeAll
  static void render() throws Exception {
    for (String tool : List.of("ansible-playbook", "debootstrap", "chroot")) {
      RenderedCase.requireTool(tool);
    }
    String spec = Files.readString(Golden.repo().resolve("examples/aws-h100/cluster.yaml"));
    String gated = spec.replace("validation:\n", "validation:\n  gateScheduling: true\n");
    assertNotEquals(spec, gated);
    Path file = Files.writeString(rendered.resolve("spec.yaml"), gated);
    Cli cli = Cli.run("render", file.toString(), "-o", rendered.resolve("out").toString());
    assertEquals(0, cli.exit(), cli.toString());
    dir = rendered.resolve("out/ansible");
  }

  @BeforeEach
  void cluster() throws Exception {
    kube = new KubernetesStandIn();
    kube.version = new String[] {"1", "33", "v1.33.5-eks-1234567"};
    Files.createDirectories(dir.resolve(".state"));
    kube.writeKubeconfig(dir.resolve(".state/kubeconfig"), "eks");
  }

  @AfterEach
  void stop() {
    kube.close();
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.MINUTES)
  void aFailingNodeIsTaintedUntilARunPassesItAndOtherNodesAreLeftAlone() throws Exception {
    // node-a registered with the gate taint and carries another tool's taint; node-b fails its
    // burn-in; node-c passes at 352 GB/s, 12% below the pool's median of 400: an outlier.
    kube.put(
        node(
            "node-a",
            List.of(
                taint("gpugen.dev/validation", "pending", "NoSchedule"),
                taint("example.com/maintenance", "soon", "PreferNoSchedule")),
            Map.of("workload-type", "training")));
    kube.put(node("node-b", List.of(), Map.of()));
    kube.put(node("node-c", List.of(), Map.of()));
    // Another pool's node (not in this run) and another cluster's node in the same API.
    kube.put(
        node(
            "l4-node",
            List.of(taint("gpugen.dev/validation", "pending", "NoSchedule")),
            Map.of("gpugen-pool", "l4")));
    kube.put(
        node(
            "other-cluster-node",
            List.of(taint("gpugen.dev/validation", "failed", "NoSchedule")),
            Map.of("gpugen.dev/validation", "failed")));
    ObjectNode l4Before = kube.get("Node", "", "l4-node").orElseThrow().deepCopy();
    ObjectNode otherBefore = kube.get("Node", "", "other-cluster-node").orElseThrow().deepCopy();
    // Between play 05's read of node-c and its write, another client adds a taint.
    kube.afterNextRead.put(
        "nodes/node-c",
        n ->
            n.withObjectProperty("spec")
                .withArrayProperty("taints")
                .add(taint("example.com/racer", "x", "NoSchedule")));

    Map<String, Path> roots = new LinkedHashMap<>();
    try {
      for (String host : HOSTS) {
        Path root = TestRoot.fresh(tmp.resolve(host));
        roots.put(host, root);
        AnsibleToolsTest.installStandIns(root, host.equals("node-c") ? "352.00" : "400.00", 32);
      }
      AnsibleToolsTest.executable(
          roots.get("node-b").resolve("var/cache/gpugen/validation/gpu-burn/gpu_burn"),
          standIn("gpu_burn-one-faulty"));
      Path inventory = inventory(roots);

      RealTools.Result first = play(inventory, "pool_h100", "network,reboot,helm,scheduler", false);
      assertNotEquals(0, first.exitCode(), first.output());
      assertEquals(1, RealTools.recap(first.output(), "node-b").get("failed"), first.output());
      assertEquals(0, RealTools.recap(first.output(), "node-a").get("failed"), first.output());
      assertEquals(0, RealTools.recap(first.output(), "node-c").get("failed"), first.output());

      JsonNode b = kube.get("Node", "", "node-b").orElseThrow();
      assertEquals(List.of("gpugen.dev/validation=failed:NoSchedule"), taints(b));
      assertEquals("failed", label(b, "gpugen.dev/validation"));
      assertTrue(
          label(b, "gpugen.dev/validated-at").matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\dZ"),
          b::toString);
      assertEquals("gpu_burn", annotation(b, "gpugen.dev/validation-failed-checks"));
      assertTrue(
          annotation(b, "gpugen.dev/validation-message")
              .startsWith("gpu_burn: measured 7 GPUs OK (exit 1), expected 8 GPUs OK after 120 s"),
          b::toString);

      JsonNode a = kube.get("Node", "", "node-a").orElseThrow();
      assertEquals(List.of("example.com/maintenance=soon:PreferNoSchedule"), taints(a));
      assertEquals("passed", label(a, "gpugen.dev/validation"));
      assertEquals("training", label(a, "workload-type"));
      assertFalse(
          a.path("metadata").path("annotations").has("gpugen.dev/validation-failed-checks"));

      // node-c: the verdict written after a 409, the racing client's taint kept; an outlier.
      JsonNode c = kube.get("Node", "", "node-c").orElseThrow();
      assertEquals(List.of("example.com/racer=x:NoSchedule"), taints(c));
      assertEquals("passed", label(c, "gpugen.dev/validation"));
      assertEquals("true", label(c, "gpugen.dev/validation-outlier"));
      assertEquals(2, patches("node-c"), kube.requests::toString);
      JsonNode outlier = report("node-c").path("checks").path("outlier");
      assertEquals("warn", outlier.path("status").asText(), outlier::toString);
      assertEquals(12.0, outlier.path("busbw_below_median_percent").asDouble(), 1e-9);
      assertEquals(400.0, outlier.path("pool_median_busbw_gbps").asDouble(), 1e-9);
      assertTrue(report("node-c").path("passed").asBoolean());
      assertEquals("pass", report("node-a").path("checks").path("outlier").path("status").asText());
      assertEquals(
          6230.0, report("node-a").path("checks").path("gpu_burn").path("gflops").asDouble());
      // The summary names the outlier; the run's end drew the page and the JUnit file.
      assertTrue(
          first
              .output()
              .contains("outlier node-c (pool h100): busbw 352.0 GB/s, 12.0% below the median"),
          first.output());
      assertTrue(
          Files.readString(dir.resolve("reports/index.html")).contains("<tr data-host=\"node-b\""));
      assertTrue(
          Files.readString(dir.resolve("reports/validation-junit.xml"))
              .contains("hostname=\"node-c\""));

      // Nothing of another pool or cluster was read for writing, or written.
      assertEquals(l4Before, kube.get("Node", "", "l4-node").orElseThrow());
      assertEquals(otherBefore, kube.get("Node", "", "other-cluster-node").orElseThrow());
      assertFalse(
          kube.requests.stream()
              .anyMatch(r -> r.endsWith("/l4-node") || r.endsWith("/other-cluster-node")),
          kube.requests::toString);

      // node-b repaired, but a run that skips the burn-in cannot clear it. Only node-b's verdict
      // is asserted, so the run is node-b's alone.
      AnsibleToolsTest.installStandIns(roots.get("node-b"), "400.00", 32);
      installStandInsAgain(roots);
      RealTools.Result skipped =
          play(inventory, "node-b", "network,reboot,helm,scheduler,burn-in", false);
      RenderedCase.assertExit(0, skipped);
      b = kube.get("Node", "", "node-b").orElseThrow();
      assertEquals(List.of("gpugen.dev/validation=failed:NoSchedule"), taints(b));
      assertEquals("gpu_burn", annotation(b, "gpugen.dev/validation-failed-checks"));
      assertTrue(
          annotation(b, "gpugen.dev/validation-message")
              .startsWith("gpu_burn: failed before, not passed since (this run: skipped)"),
          b::toString);

      // A full run passes node-b's own checks while the pool's multi-node all-reduce fails
      // (NCCL's log shows no GPUDirect RDMA, which aws-ofi-nccl requires on p5.48xlarge). The
      // verdict is the node's own: node-b loses its taint and annotations and is labelled passed,
      // and the group's failure, which cannot say which node is at fault, taints no node. The run
      // fails, every host once and for the group's check alone, and every report says so.
      for (Map.Entry<String, Path> e : roots.entrySet()) {
        Files.createDirectories(e.getValue().resolve("etc/ssh"));
        Files.writeString(
            e.getValue().resolve("etc/ssh/ssh_host_ed25519_key.pub"),
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"
                + e.getKey().toUpperCase()
                + "HOSTKEY root@"
                + e.getKey()
                + "\n");
      }
      Path mpirun = roots.get("node-a").resolve("opt/amazon/openmpi/bin/mpirun");
      AnsibleToolsTest.executable(mpirun, standIn("mpirun"));
      Files.writeString(mpirun.resolveSibling("gdr"), "0\n");
      RealTools.Result second = play(inventory, "pool_h100", "network,reboot,helm,scheduler", true);
      assertNotEquals(0, second.exitCode(), second.output());
      b = kube.get("Node", "", "node-b").orElseThrow();
      assertEquals(List.of(), taints(b));
      assertFalse(b.path("metadata").path("annotations").has("gpugen.dev/validation-message"));
      for (String host : HOSTS) {
        assertEquals(1, RealTools.recap(second.output(), host).get("failed"), second.output());
        assertTrue(
            Pattern.compile(
                    "fatal: \\["
                        + host
                        + "\\]: FAILED! => \\{[^\n]*\"msg\": \"nccl_all_reduce_multi_node: measured"
                        + " [^\"\n]*\"\\}")
                .matcher(second.output())
                .find(),
            second.output());
        JsonNode checks = report(host).path("checks");
        assertEquals(List.of("nccl_all_reduce_multi_node"), failed(checks), host + ": " + checks);
        JsonNode multi = checks.path("nccl_all_reduce_multi_node");
        assertTrue(
            multi.path("measured").asText().contains("0 of 4 NET/Libfabric connections GDRDMA"),
            multi::toString);
        JsonNode n = kube.get("Node", "", host).orElseThrow();
        assertFalse(
            taints(n).stream().anyMatch(t -> t.startsWith("gpugen.dev/validation=")), n::toString);
        assertEquals("passed", label(n, "gpugen.dev/validation"), n::toString);
        assertFalse(
            n.path("metadata").path("annotations").has("gpugen.dev/validation-failed-checks"),
            n::toString);
      }
      c = kube.get("Node", "", "node-c").orElseThrow();
      assertFalse(
          c.path("metadata").path("labels").has("gpugen.dev/validation-outlier"), c::toString);
      assertEquals(l4Before, kube.get("Node", "", "l4-node").orElseThrow());
      assertEquals(otherBefore, kube.get("Node", "", "other-cluster-node").orElseThrow());
    } finally {
      for (Path root : roots.values()) {
        TestRoot.delete(root);
      }
    }
  }

  /**
   * Play 03's gate on the controller: a node that never carried a verdict gets the pending taint; a
   * node labelled with a verdict, or already carrying gpugen's taint, is left alone.
   */
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void play03GatesOnlyNodesThatNeverCarriedAVerdict() throws Exception {
    kube.put(node("fresh", List.of(), Map.of()));
    kube.put(node("validated", List.of(), Map.of("gpugen.dev/validation", "passed")));
    kube.put(
        node(
            "failed",
            List.of(taint("gpugen.dev/validation", "failed", "NoSchedule")),
            Map.of("gpugen.dev/validation", "failed")));
    ObjectNode validated = kube.get("Node", "", "validated").orElseThrow().deepCopy();
    ObjectNode failed = kube.get("Node", "", "failed").orElseThrow().deepCopy();
    StringBuilder inv =
        new StringBuilder("gpu_nodes:\n  children:\n    pool_h100:\n      hosts:\n");
    for (String h : List.of("fresh", "validated", "failed")) {
      inv.append("        ").append(h).append(": {kubernetes_node_name: ").append(h).append("}\n");
    }
    inv.append(
        "  vars:\n    ansible_connection: local\n    ansible_python_interpreter: /usr/bin/python3\n");
    Path inventory = Files.writeString(tmp.resolve("inventory.yml"), inv.toString());
    RealTools.Result r =
        RealTools.run(
            dir,
            RUN_TIMEOUT,
            RealTools.YAML_INVENTORY,
            List.of(
                "ansible-playbook",
                "-i",
                inventory.toString(),
                "--tags",
                "gate",
                "03-gpu-operator.yml"));
    RenderedCase.assertExit(0, r);
    assertEquals(
        List.of("gpugen.dev/validation=pending:NoSchedule"),
        taints(kube.get("Node", "", "fresh").orElseThrow()));
    assertEquals(validated, kube.get("Node", "", "validated").orElseThrow());
    assertEquals(failed, kube.get("Node", "", "failed").orElseThrow());
    assertEquals(0, patches("validated") + patches("failed"), kube.requests::toString);
  }

  private RealTools.Result play(Path inventory, String limit, String skip, boolean multiNode)
      throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "ansible-playbook",
                "-i",
                inventory.toString(),
                "--limit",
                limit,
                "--skip-tags",
                skip,
                "-e",
                "validation_nccl_multi_node=" + multiNode,
                // gpugen report with this test's classes, as the gpugen launcher would run it.
                "-e",
                JSON.writeValueAsString(
                    Map.of(
                        "validation_gpugen",
                        List.of(
                            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            "dev.gpugen.cli.Main"))),
                "05-validation.yml"));
    return RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
  }

  /** Three chroot hosts of pool h100, and a host of another pool that --limit leaves out. */
  private Path inventory(Map<String, Path> roots) throws Exception {
    StringBuilder inv = new StringBuilder("all:\n  children:\n    gpu_nodes:\n      hosts:\n");
    for (Map.Entry<String, Path> e : roots.entrySet()) {
      inv.append("        ")
          .append(e.getKey())
          .append(": {ansible_connection: community.general.chroot, ansible_host: \"")
          .append(e.getValue())
          .append("\", gpugen_live_host: true, gpugen_pool: h100, kubernetes_node_name: ")
          .append(e.getKey())
          .append("}\n");
    }
    inv.append("        l4-host: {ansible_connection: local, kubernetes_node_name: l4-node}\n");
    inv.append("    pool_h100:\n      hosts:\n");
    for (String h : roots.keySet()) {
      inv.append("        ").append(h).append(":\n");
    }
    inv.append("    pool_l4:\n      hosts:\n        l4-host:\n");
    return Files.writeString(tmp.resolve("inventory.yml"), inv.toString());
  }

  /** node-c back at the pool's figure: no outlier in the next runs. */
  private static void installStandInsAgain(Map<String, Path> roots) throws Exception {
    AnsibleToolsTest.installStandIns(roots.get("node-c"), "400.00", 32);
  }

  private static String standIn(String name) throws Exception {
    return Files.readString(
        Golden.repo().resolve("src/test/resources/ansible-stand-ins").resolve(name));
  }

  /** Play 05's report of {@code host} in this run's tree. */
  private JsonNode report(String host) throws Exception {
    return ValidationReports.report(dir, host);
  }

  private long patches(String node) {
    return kube.requests.stream().filter(r -> r.equals("PATCH /api/v1/nodes/" + node)).count();
  }

  private static ObjectNode node(String name, List<ObjectNode> taints, Map<String, String> labels) {
    ObjectNode n = JSON.createObjectNode();
    n.put("kind", "Node");
    ObjectNode meta = n.putObject("metadata").put("name", name);
    ObjectNode l = meta.putObject("labels");
    labels.forEach(l::put);
    ArrayNode t = n.putObject("spec").putArray("taints");
    taints.forEach(t::add);
    ObjectNode status = n.putObject("status");
    status.putObject("allocatable").put("nvidia.com/gpu", "8").put("vpc.amazonaws.com/efa", "32");
    ObjectNode ready = status.putArray("conditions").addObject();
    ready.put("type", "Ready").put("status", "True").put("reason", "KubeletReady");
    return n;
  }

  private static ObjectNode taint(String key, String value, String effect) {
    return JSON.createObjectNode().put("key", key).put("value", value).put("effect", effect);
  }

  private static List<String> taints(JsonNode node) {
    List<String> out = new ArrayList<>();
    for (JsonNode t : node.path("spec").path("taints")) {
      out.add(
          t.path("key").asText()
              + "="
              + t.path("value").asText()
              + ":"
              + t.path("effect").asText());
    }
    return out;
  }

  private static String label(JsonNode node, String key) {
    return node.path("metadata").path("labels").path(key).asText(null);
  }

  private static String annotation(JsonNode node, String key) {
    return node.path("metadata").path("annotations").path(key).asText("");
  }
}
