package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pods reach the HCAs (the static-infiniband golden, kubeadm): ansible-playbook and kubernetes.core
 * against {@link KubernetesStandIn}, whose scheduler leaves a pod that requests rdma/... Pending
 * until the RDMA shared device plugin's DaemonSet exists. Before play 03 the pod check of play 05
 * fails on the first node of each InfiniBand/RoCE pool; play 03 applies the plugin at its pinned
 * image with the tolerations, and play 05's pod then runs NCCL over IB with GDRDMA on those nodes,
 * and on no node of the TCP pool.
 */
@RealToolsTest
class RdmaPodCheckTest {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(6);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private KubernetesStandIn kube;
  private Path dir;
  private Path inventory;

  @BeforeEach
  void cluster() throws Exception {
    RenderedCase.requireTool("ansible-playbook");
    dir = RenderedCase.render("static-infiniband", tmp.resolve("render")).ansible();
    kube = new KubernetesStandIn();
    kube.version = new String[] {"1", "33", "v1.33.5"};
    kube.writeKubeconfig(
        Files.createDirectories(dir.resolve(".state")).resolve("kubeconfig"), "kubeadm");
    StringBuilder inv = new StringBuilder("gpu_nodes:\n  children:\n");
    for (List<String> pool :
        List.of(
            List.of("pool_h100", "hgx-01", "hgx-02"),
            List.of("pool_b200", "hgx-b-01"),
            List.of("pool_l40s", "infer-01"))) {
      inv.append("    ").append(pool.get(0)).append(":\n      hosts:\n");
      for (String host : pool.subList(1, pool.size())) {
        inv.append("        ")
            .append(host)
            .append(": {kubernetes_node_name: ")
            .append(host)
            .append("}\n");
        ObjectNode n = JSON.createObjectNode();
        n.put("kind", "Node");
        n.putObject("metadata").put("name", host);
        kube.put(n);
      }
    }
    inv.append(
        "  vars:\n    ansible_connection: local\n    ansible_python_interpreter: /usr/bin/python3\n");
    inventory = Files.writeString(tmp.resolve("inventory.yml"), inv.toString());
  }

  @AfterEach
  void stop() {
    kube.close();
  }

  @Test
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void aPodReachesTheHcasOnlyThroughTheRdmaSharedDevicePlugin() throws Exception {
    RealTools.Result before = play("05-validation.yml", "--tags", "rdma_checks");
    assertNotEquals(0, before.exitCode(), before.output());
    for (String host : List.of("hgx-01", "hgx-b-01")) {
      assertEquals(1, RealTools.recap(before.output(), host).get("failed"), before.output());
    }
    for (String host : List.of("hgx-02", "infer-01")) {
      assertEquals(0, RealTools.recap(before.output(), host).get("failed"), before.output());
    }
    assertTrue(
        before
            .output()
            .contains(
                "NCCL inside pod default/gpugen-rdma-pool-h100 on hgx-01 (pool group pool_h100): phase Pending"),
        before.output());
    assertTrue(
        before
            .output()
            .contains("the pod needs rdma/hca_shared_devices_a from the RDMA shared device plugin"),
        before.output());

    RealTools.Result three = play("03-gpu-operator.yml", "--tags", "rdma-device-plugin");
    RenderedCase.assertExit(0, three);
    ObjectNode ds = kube.get("DaemonSet", "kube-system", "rdma-shared-dp-ds").orElseThrow();
    JsonNode spec = ds.path("spec").path("template").path("spec");
    assertEquals(
        "nvcr.io/nvidia/mellanox/k8s-rdma-shared-dev-plugin:network-operator-v26.4.1",
        spec.path("containers").path(0).path("image").asText(),
        ds::toString);
    // The node-level tolerations every gpugen DaemonSet carries (ClusterPlan.gpuNodeTolerations):
    // the pool's taint and play 05's verdict taint.
    assertEquals(
        "[{\"key\":\"nvidia.com/gpu\",\"operator\":\"Equal\",\"value\":\"present\","
            + "\"effect\":\"NoSchedule\"},{\"key\":\"gpugen.dev/validation\","
            + "\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]",
        spec.path("tolerations").toString());
    assertTrue(spec.path("hostNetwork").asBoolean());
    ObjectNode cm = kube.get("ConfigMap", "kube-system", "rdma-devices").orElseThrow();
    JsonNode config = JSON.readTree(cm.path("data").path("config.json").asText());
    assertEquals(
        "hca_shared_devices_a",
        config.path("configList").path(0).path("resourceName").asText(),
        config::toString);
    assertEquals(
        "[\"15b3\"]",
        config.path("configList").path(0).path("selectors").path("vendors").toString());
    assertEquals(
        1000, config.path("configList").path(0).path("rdmaHcaMax").asInt(), config::toString);

    RealTools.Result after = play("05-validation.yml", "--tags", "rdma_checks");
    RenderedCase.assertExit(0, after);
    String log = Files.readString(dir.resolve("reports/gpugen-rdma-pool-h100.log"));
    assertTrue(log.contains("via NET/IB/0/GDRDMA"), log);
    assertTrue(Files.exists(dir.resolve("reports/gpugen-rdma-pool-b200.log")));
    assertTrue(kube.get("Pod", "default", "gpugen-rdma-pool-h100").isEmpty(), "the pod is removed");
    assertTrue(
        kube.get("Pod", "default", "gpugen-rdma-pool-l40s").isEmpty(), "no pod on the TCP pool");
  }

  private RealTools.Result play(String playbook, String... args) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "ansible-playbook",
                "-i",
                inventory.toString(),
                "-e",
                "rdma_checks_retries=2",
                "-e",
                "rdma_checks_delay=0"));
    cmd.addAll(List.of(args));
    cmd.add(playbook);
    return RealTools.run(dir, RUN_TIMEOUT, Map.of("ANSIBLE_INVENTORY_ENABLED", "yaml"), cmd);
  }
}
