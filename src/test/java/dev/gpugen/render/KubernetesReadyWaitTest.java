package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * Play 02b's last play for real: ansible-playbook and kubernetes.core poll the loopback Kubernetes
 * API ({@link KubernetesStandIn}) through the kubeconfig play 02b fetched, until every host of the
 * kubeadm cluster (the static-kubeadm-ha golden: three control-plane hosts, two GPU nodes) is a
 * Ready node, or the deadline passes and one failure names each host that is not. The hosts run on
 * the controller (connection local), each with its node name.
 */
@RealToolsTest
class KubernetesReadyWaitTest {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(5);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> HOSTS =
      List.of("cp-01", "cp-02", "cp-03", "gpu-node-01", "gpu-node-02");

  @TempDir static Path rendered;
  private static Path dir;
  private static Path inventory;

  private KubernetesStandIn kube;

  @BeforeAll
  static void render() throws Exception {
    RenderedCase.requireTool("ansible-playbook");
    dir = RenderedCase.render("static-kubeadm-ha", rendered.resolve("case")).ansible();
    StringBuilder inv = new StringBuilder("all:\n  hosts:\n");
    for (String h : HOSTS) {
      inv.append("    ").append(h).append(": {kubernetes_node_name: ").append(h).append("}\n");
    }
    inv.append("  vars:\n    ansible_connection: local\n")
        .append("    ansible_python_interpreter: /usr/bin/python3\n")
        .append("  children:\n")
        .append("    kube_control_plane:\n      hosts: {cp-01: {}, cp-02: {}, cp-03: {}}\n")
        .append("    gpu_nodes:\n      hosts: {gpu-node-01: {}, gpu-node-02: {}}\n");
    inventory = Files.writeString(rendered.resolve("inventory.yml"), inv.toString());
  }

  @BeforeEach
  void healthyCluster() throws Exception {
    kube = new KubernetesStandIn();
    kube.version = new String[] {"1", "34", "v1.34.2"};
    // Where play 02b writes the admin kubeconfig it fetched.
    Files.createDirectories(dir.resolve(".state"));
    kube.writeKubeconfig(dir.resolve(".state/kubeconfig"), "kubernetes-admin@kubernetes");
    for (String h : HOSTS) {
      kube.put(node(h, "True"));
    }
  }

  @AfterEach
  void stop() {
    kube.close();
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void everyReadyNodePassesAtOnce() throws Exception {
    RealTools.Result r = play();
    RenderedCase.assertExit(0, r);
    for (String h : HOSTS) {
      assertEquals(0, RealTools.recap(r.output(), h).get("failed"), r.output());
      assertTrue(kube.requests.contains("GET /api/v1/nodes/" + h), kube.requests::toString);
    }
  }

  /** A GPU node whose CNI pod is still starting turns Ready on the third poll: the play waits. */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aNodeThatTurnsReadyLaterIsWaitedFor() throws Exception {
    kube.put(node("gpu-node-02", "False"));
    kube.before("GET /api/v1/nodes/gpu-node-02", 3, () -> kube.put(node("gpu-node-02", "True")));
    RealTools.Result r = play();
    RenderedCase.assertExit(0, r);
    assertEquals(
        3,
        kube.requests.stream().filter("GET /api/v1/nodes/gpu-node-02"::equals).count(),
        kube.requests::toString);
  }

  /** After the deadline one failure names every host that is not a Ready node, and why. */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void theDeadlinePassesNamingEveryHostThatIsNotReady() throws Exception {
    kube.put(node("gpu-node-01", "False"));
    kube.remove(node("gpu-node-02", "True"));
    RealTools.Result r = play();
    assertNotEquals(0, r.exitCode(), r.output());
    String flat = r.output().replaceAll("\\s+", " ");
    assertTrue(
        flat.contains(
            "2 of 5 host(s) are not Ready nodes after 3 s: gpu-node-01 (node gpu-node-01: not"
                + " Ready: Ready=False, KubeletNotReady, container runtime network not ready);"
                + " gpu-node-02 (node gpu-node-02: not a node of the cluster)"),
        r.output());
    // retries 3: Ansible makes the first attempt and three more, a second apart.
    assertEquals(
        4,
        kube.requests.stream().filter("GET /api/v1/nodes/gpu-node-01"::equals).count(),
        "polled until the deadline: " + kube.requests);
  }

  /** The wait play of 02b alone (tag ready), four polls a second apart. */
  private RealTools.Result play() throws Exception {
    return RealTools.run(
        dir,
        RUN_TIMEOUT,
        Map.of("ANSIBLE_INVENTORY_ENABLED", "yaml"),
        List.of(
            "ansible-playbook",
            "-i",
            inventory.toString(),
            "--tags",
            "ready",
            "-e",
            "kubernetes_checks_ready_retries=3",
            "-e",
            "kubernetes_checks_ready_delay=1",
            "02b-kubernetes.yml"));
  }

  private static ObjectNode node(String name, String ready) {
    ObjectNode n = JSON.createObjectNode();
    n.put("kind", "Node");
    n.putObject("metadata").put("name", name);
    ObjectNode condition = n.putObject("status").putArray("conditions").addObject();
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
