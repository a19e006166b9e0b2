package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gpugen.Cli;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kubernetes_checks role of a spec with {@code kubernetes: {distribution: existing}}, run for
 * real: ansible-playbook and kubernetes.core against {@link KubernetesStandIn} (a Kubernetes API on
 * 127.0.0.1) through a kubeconfig in KUBECONFIG. The spec is the two-pool golden spec: pool a100
 * (p4d.24xlarge: 8 GPUs x 4 time-slicing replicas, 4 EFA interfaces) and pool l4-infer
 * (g6.48xlarge: 8 GPUs x 4, 1 EFA). The hosts run on the controller (connection local); each gets
 * its Kubernetes node name from the inventory. The stand-in starts as a healthy cluster at the
 * spec's minor and each test breaks one thing.
 */
@RealToolsTest
class KubernetesChecksTest {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(5);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Host, pool, node name. */
  private static final List<List<String>> HOSTS =
      List.of(
          List.of("a100-0", "a100", "ip-10-50-0-10.us-west-2.compute.internal"),
          List.of("a100-1", "a100", "ip-10-50-0-11.us-west-2.compute.internal"),
          List.of("l4-0", "l4-infer", "ip-10-50-0-20.us-west-2.compute.internal"));

  @TempDir static Path rendered;
  private static Path dir;
  private static Path inventory;

  @TempDir Path tmp;
  private KubernetesStandIn kube;
  private Path kubeconfig;

  @BeforeAll
  static void render() throws Exception {
    RenderedCase.requireTool("ansible-playbook");
    Path spec = Files.copy(RenderedCase.spec("two-pool"), rendered.resolve("spec.yaml"));
    assertTrue(Files.readString(spec).contains("distribution: existing"));
    Cli cli = Cli.run("render", spec.toString(), "-o", rendered.resolve("out").toString());
    assertEquals(0, cli.exit(), cli.toString());
    dir = rendered.resolve("out/ansible");
    StringBuilder inv = new StringBuilder("gpu_nodes:\n  children:\n");
    for (String pool : List.of("a100", "l4-infer")) {
      inv.append("    pool_").append(pool.replace('-', '_')).append(":\n      hosts:\n");
      for (List<String> h : HOSTS) {
        if (h.get(1).equals(pool)) {
          inv.append("        ")
              .append(h.get(0))
              .append(": {kubernetes_node_name: ")
              .append(h.get(2))
              .append("}\n");
        }
      }
    }
    inv.append("  vars:\n    ansible_connection: local\n")
        .append("    ansible_python_interpreter: /usr/bin/python3\n");
    inventory = Files.writeString(rendered.resolve("inventory.yml"), inv.toString());
  }

  @BeforeEach
  void healthyCluster() throws Exception {
    kube = new KubernetesStandIn();
    kube.version = new String[] {"1", "33", "v1.33.5"};
    kubeconfig = kube.writeKubeconfig(tmp.resolve("kubeconfig"), "existing");
    for (List<String> h : HOSTS) {
      kube.put(node(h.get(2), "True", "32", h.get(1).equals("a100") ? "4" : "1"));
    }
    // A CPU node of the same cluster: not an inventory host, never judged.
    kube.put(node("ip-10-50-0-99.us-west-2.compute.internal", "False", null, null));
  }

  @AfterEach
  void stop() {
    kube.close();
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aHealthyClusterPassesThePreflightAndTheSchedulerChecks() throws Exception {
    RealTools.Result r = play("03-gpu-operator.yml", "preflight");
    RenderedCase.assertExit(0, r);
    for (List<String> h : HOSTS) {
      assertEquals(0, RealTools.recap(r.output(), h.get(0)).get("failed"), r.output());
    }
    assertTrue(kube.requests.contains("GET /version"), kube.requests::toString);
    assertTrue(kube.requests.contains("GET /api/v1/nodes"), kube.requests::toString);
    r = play("05-validation.yml", "scheduler");
    RenderedCase.assertExit(0, r);
    for (List<String> h : HOSTS) {
      assertTrue(kube.requests.contains("GET /api/v1/nodes/" + h.get(2)), kube.requests::toString);
    }
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void thePreflightFailsNamingEveryHostThatIsNotAReadyNode() throws Exception {
    kube.put(node(HOSTS.get(1).get(2), "False", "32", "4"));
    kube.remove(node(HOSTS.get(2).get(2), "True", null, null));
    RealTools.Result r = play("03-gpu-operator.yml", "preflight");
    assertNotEquals(0, r.exitCode(), r.output());
    String flat = r.output().replaceAll("\\s+", " ");
    assertTrue(
        flat.contains(
            "2 of 3 GPU host(s) are not Ready nodes of the kubeconfig's cluster: a100-1 (node "
                + HOSTS.get(1).get(2)
                + ": not Ready: Ready=False, KubeletNotReady, container runtime network not"
                + " ready); l4-0 (node "
                + HOSTS.get(2).get(2)
                + ": not a node of the cluster)"),
        r.output());
    assertFalse(flat.contains("a100-0 (node"), r.output());
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void thePreflightFailsWhenTheClusterRunsAnotherMinor() throws Exception {
    kube.version = new String[] {"1", "31+", "v1.31.6-eks-1234567"};
    RealTools.Result r = play("03-gpu-operator.yml", "preflight");
    assertNotEquals(0, r.exitCode(), r.output());
    assertTrue(
        r.output()
            .replaceAll("\\s+", " ")
            .contains(
                "the kubeconfig's cluster (existing) runs Kubernetes v1.31.6-eks-1234567 (minor"
                    + " 1.31), the spec's kubernetes.version is 1.33"),
        r.output());
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aNodeShortOfGpusFailsPlay05NamingTheNode() throws Exception {
    kube.put(node(HOSTS.get(0).get(2), "True", "8", "4"));
    RealTools.Result r = play("05-validation.yml", "scheduler");
    assertNotEquals(0, r.exitCode(), r.output());
    assertTrue(
        r.output()
            .replaceAll("\\s+", " ")
            .contains(
                "node "
                    + HOSTS.get(0).get(2)
                    + " (host a100-0, pool a100) falls short: advertises 8 nvidia.com/gpu,"
                    + " expected 32 (8 GPUs x 4 time-slicing replicas)"),
        r.output());
    assertEquals(1, RealTools.recap(r.output(), "a100-0").get("failed"), r.output());
    assertEquals(0, RealTools.recap(r.output(), "a100-1").get("failed"), r.output());
    assertEquals(0, RealTools.recap(r.output(), "l4-0").get("failed"), r.output());
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aNotReadyNodeFailsPlay05NamingTheNode() throws Exception {
    kube.put(node(HOSTS.get(2).get(2), "False", "32", "1"));
    RealTools.Result r = play("05-validation.yml", "scheduler");
    assertNotEquals(0, r.exitCode(), r.output());
    assertTrue(
        r.output()
            .replaceAll("\\s+", " ")
            .contains(
                "node "
                    + HOSTS.get(2).get(2)
                    + " (host l4-0, pool l4-infer) falls short: not Ready (Ready=False,"
                    + " KubeletNotReady)"),
        r.output());
    assertEquals(1, RealTools.recap(r.output(), "l4-0").get("failed"), r.output());
    assertEquals(0, RealTools.recap(r.output(), "a100-0").get("failed"), r.output());
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aNodeWithoutEfaFailsPlay05NamingTheNode() throws Exception {
    kube.put(node(HOSTS.get(1).get(2), "True", "32", null));
    RealTools.Result r = play("05-validation.yml", "scheduler");
    assertNotEquals(0, r.exitCode(), r.output());
    assertTrue(
        r.output()
            .replaceAll("\\s+", " ")
            .contains(
                "node "
                    + HOSTS.get(1).get(2)
                    + " (host a100-1, pool a100) falls short: advertises no"
                    + " vpc.amazonaws.com/efa, expected 4 (the EFA interfaces)"),
        r.output());
    assertEquals(1, RealTools.recap(r.output(), "a100-1").get("failed"), r.output());
    assertEquals(0, RealTools.recap(r.output(), "a100-0").get("failed"), r.output());
  }

  /**
   * Pods get the spec's NCCL settings as ConfigMap gpugen-nccl-conf (key nccl.conf, the lines of
   * /etc/nccl.conf); a second run changes nothing.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void play03GivesPodsTheNcclSettingsAsAConfigMap() throws Exception {
    RealTools.Result r = play("03-gpu-operator.yml", "nccl-configmap");
    RenderedCase.assertExit(0, r);
    ObjectNode cm = kube.get("ConfigMap", "default", "gpugen-nccl-conf").orElseThrow();
    assertEquals(
        "NCCL_DEBUG=WARN\nNCCL_SOCKET_IFNAME==ens5\n",
        cm.path("data").path("nccl.conf").asText(),
        cm::toString);
    assertEquals(
        "gpugen", cm.path("metadata").path("labels").path("app.kubernetes.io/managed-by").asText());
    assertEquals(1, RealTools.recap(r.output(), "a100-0").get("changed"), r.output());
    r = play("03-gpu-operator.yml", "nccl-configmap");
    RenderedCase.assertExit(0, r);
    assertEquals(0, RealTools.recap(r.output(), "a100-0").get("changed"), r.output());
  }

  /** Runs one playbook's tagged tasks with KUBECONFIG pointing at the stand-in, polling once. */
  private RealTools.Result play(String playbook, String tag) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "ansible-playbook",
                "-i",
                inventory.toString(),
                "--tags",
                tag,
                "-e",
                "kubernetes_checks_retries=1",
                "-e",
                "kubernetes_checks_delay=0",
                playbook));
    return RealTools.run(
        dir,
        RUN_TIMEOUT,
        Map.of(
            "KUBECONFIG",
            kubeconfig.toString(),
            "K8S_AUTH_KUBECONFIG",
            kubeconfig.toString(),
            "ANSIBLE_INVENTORY_ENABLED",
            "yaml"),
        cmd);
  }

  /**
   * A node whose Ready condition is {@code ready} and which advertises {@code gpus} nvidia.com/gpu
   * and {@code efa} vpc.amazonaws.com/efa (null: not advertised).
   */
  private static ObjectNode node(String name, String ready, String gpus, String efa) {
    ObjectNode n = JSON.createObjectNode();
    n.put("kind", "Node");
    n.putObject("metadata").put("name", name);
    ObjectNode status = n.putObject("status");
    ObjectNode allocatable = status.putObject("allocatable").put("cpu", "95");
    if (gpus != null) {
      allocatable.put("nvidia.com/gpu", gpus);
    }
    if (efa != null) {
      allocatable.put("vpc.amazonaws.com/efa", efa);
    }
    ObjectNode condition = status.putArray("conditions").addObject();
    condition.put("type", "Ready");
    condition.put("status", ready);
    condition.put("reason", ready.equals("True") ? "KubeletReady" : "KubeletNotReady");
    condition.put(
        "message",
        ready.equals("True")
            ? "kubelet is posting ready status"
            : "container runtime network not ready");
    return n;
  }
}
