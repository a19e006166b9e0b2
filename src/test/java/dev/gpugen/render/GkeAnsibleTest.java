package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
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
 * The GKE Ansible tree run for real: ansible-playbook and kubernetes.core (with the Python
 * kubernetes client) against {@link KubernetesStandIn}, a Kubernetes API on 127.0.0.1, through a
 * kubeconfig the test writes and the KUBECONFIG variable the role's default reads. The spec is the
 * gcp-gke golden spec plus an all-reduce threshold of 350 GB/s; the stand-in starts as a healthy
 * cluster and each test breaks one thing.
 */
@RealToolsTest
class GkeAnsibleTest {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(5);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The context `gcloud container clusters get-credentials` writes for the spec's cluster. */
  private static final String CONTEXT = "gke_ml-platform-prod_us-central1-a_gke-train";

  /** Fast polling for the tests: a broken cluster fails in seconds, not minutes. */
  private static final List<String> FAST =
      List.of(
          "-e",
          "gke_checks_retries=1",
          "-e",
          "gke_checks_delay=0",
          "-e",
          "gke_checks_wait_seconds=2");

  @TempDir static Path rendered;
  private static Path dir;

  /** The same spec with GKE's own driver and device plugin (no GPU Operator). */
  private static Path gkeDriverDir;

  @TempDir Path tmp;
  private KubernetesStandIn kube;
  private Path kubeconfig;

  @BeforeAll
  static void render() throws Exception {
    RenderedCase.requireTool("ansible-playbook");
    // The inventory runs modules with Ansible's own Python (ansible_playbook_python): it must have
    // the kubernetes client (Debian package python3-kubernetes).
    RealTools.run(
            rendered,
            RUN_TIMEOUT,
            Map.of(),
            "ansible",
            "localhost",
            "-c",
            "local",
            "-e",
            "ansible_python_interpreter={{ ansible_playbook_python }}",
            "-m",
            "ansible.builtin.command",
            "-a",
            "{{ ansible_playbook_python }} -c 'import kubernetes'")
        .assertOk();
    Path spec =
        Files.writeString(
            rendered.resolve("spec.yaml"),
            // A threshold on the 8-GPU pools only: the time-sliced L4 pool validates on one
            // replica, where any bus-bandwidth threshold is an error (val-busbw-single-gpu).
            Files.readString(RenderedCase.spec("gcp-gke"))
                .replace(
                    "effect: NoSchedule}]\n",
                    "effect: NoSchedule}]\n    validation: " + THRESHOLD + "\n")
                .replace(
                    "{workload-type: batch}\n",
                    "{workload-type: batch}\n    validation: " + MULTI_NODE_THRESHOLD + "\n"));
    Cli cli = Cli.run("render", spec.toString(), "-o", rendered.resolve("out").toString());
    assertEquals(0, cli.exit(), cli.toString());
    dir = rendered.resolve("out/ansible");
    String gkeDriver = Files.readString(spec).replace("gpuDriver: operator", "gpuDriver: gke");
    assertNotEquals(Files.readString(spec), gkeDriver);
    Path gkeSpec = Files.writeString(rendered.resolve("gke-driver.yaml"), gkeDriver);
    cli = Cli.run("render", gkeSpec.toString(), "-o", rendered.resolve("gke-driver").toString());
    assertEquals(0, cli.exit(), cli.toString());
    gkeDriverDir = rendered.resolve("gke-driver/ansible");
  }

  private static final String THRESHOLD = "{ncclAllReduce: {minBusBandwidthGBps: 350}}";

  /** a100-spot, two nodes: also a threshold for its all-reduce across them. */
  private static final String MULTI_NODE_THRESHOLD =
      "{ncclAllReduce: {minBusBandwidthGBps: 350, minMultiNodeBusBandwidthGBps: 40}}";

  @BeforeEach
  void healthyCluster() throws Exception {
    kube = new KubernetesStandIn();
    kubeconfig = kube.writeKubeconfig(tmp.resolve("kubeconfig"), CONTEXT);
    // l4-infer: 2 L4 per g2-standard-24 node, time-sliced 4 ways, so 8 allocatable too; its
    // validation pod gets one replica and sees one GPU.
    for (String pool : List.of("h100", "a100-spot", "l4-infer")) {
      for (int i = 0; i < 2; i++) {
        kube.put(node("gke-gke-train-" + pool + "-" + i, pool, "8"));
      }
    }
    kube.gpusSeen.put("l4-infer", 1);
    kube.put(workload("Deployment", "gpu-operator", "gpu-operator", 0));
    for (String ds :
        List.of(
            "nvidia-driver-daemonset",
            "nvidia-container-toolkit-daemonset",
            "nvidia-device-plugin-daemonset",
            "nvidia-dcgm-exporter")) {
      kube.put(workload("DaemonSet", "gpu-operator", ds, 6));
    }
    ObjectNode policy = object("ClusterPolicy", null, "cluster-policy");
    policy.putObject("status").put("state", "ready");
    kube.put(policy);
    ObjectNode cm = object("ConfigMap", "kube-system", "gpugen-nccl-conf");
    cm.putObject("data").put("nccl.conf", "NCCL_DEBUG=WARN\n");
    kube.put(cm);
    kube.put(workload("DaemonSet", "kube-system", "gpugen-nccl-conf", 6));
  }

  @AfterEach
  void stop() {
    kube.close();
  }

  @Test
  void theInventoryGivesEachPoolHostItsPoolsGroupVars() throws Exception {
    RealTools.Result r =
        RealTools.run(dir, RUN_TIMEOUT, Map.of(), "ansible-inventory", "--list").assertOk();
    JsonNode list = JSON.readTree(r.output().substring(r.output().indexOf('{')));
    assertEquals("gke_cluster", list.path("ungrouped").path("hosts").path(0).asText(), r.output());
    JsonNode vars = list.path("_meta").path("hostvars");
    assertEquals(
        8, vars.path("gke_nodepool_a100_spot").path("gke_checks_allocatable_gpus").asInt());
    assertEquals(1, vars.path("gke_nodepool_h100").path("gke_checks_min_nodes").asInt());
    assertEquals(2, vars.path("gke_nodepool_a100_spot").path("gke_checks_min_nodes").asInt());
    // The all-reduce across nodes: on a100-spot's two, none on one node or on shared GPUs.
    assertEquals(2, vars.path("gke_nodepool_a100_spot").path("gke_checks_multi_node").asInt());
    assertEquals(0, vars.path("gke_nodepool_h100").path("gke_checks_multi_node").asInt());
    assertEquals(0, vars.path("gke_nodepool_l4_infer").path("gke_checks_multi_node").asInt());
    assertEquals("local", vars.path("gke_cluster").path("ansible_connection").asText());
    // Group pool_h100 holds exactly the host that stands for the pool.
    assertEquals("gke_nodepool_h100", list.path("pool_h100").path("hosts").path(0).asText());
  }

  /**
   * The names the role looks for are the ones the Terraform creates, and the NCCL content it
   * expects is what gke-nccl.tf's {@code join} makes of the tfvars' nccl_env (read back with
   * HashiCorp's parser and through Ansible itself).
   */
  @Test
  void theChecksLookWhereTheTerraformPutsThings() throws Exception {
    Path tf = dir.resolveSibling("terraform").resolve("in-cluster");
    JsonNode nccl = hcl(tf.resolve("gke-nccl.tf")).path("resource");
    JsonNode cm = nccl.path("kubernetes_config_map_v1").path("nccl").path(0);
    JsonNode ds = nccl.path("kubernetes_daemon_set_v1").path("nccl_conf").path(0);
    JsonNode operator =
        hcl(tf.resolve("gke-gpu-operator.tf"))
            .path("resource")
            .path("kubernetes_namespace_v1")
            .path("gpu_operator")
            .path(0);
    String defaults = Files.readString(dir.resolve("roles/gke_checks/defaults/main.yml"));
    for (String line :
        List.of(
            "gke_checks_nccl_name: " + cm.path("metadata").path(0).path("name").asText(),
            "gke_checks_nccl_name: " + ds.path("metadata").path(0).path("name").asText(),
            "gke_checks_nccl_namespace: " + cm.path("metadata").path(0).path("namespace").asText(),
            "gke_checks_nccl_key: " + cm.path("data").fieldNames().next(),
            "gke_checks_gpu_operator_namespace: "
                + operator.path("metadata").path(0).path("name").asText())) {
      assertTrue(defaults.contains("\n" + line + "\n"), line + " in\n" + defaults);
    }
    StringBuilder conf = new StringBuilder();
    new java.util.TreeMap<String, String>(
            JSON.convertValue(
                JSON.readTree(tf.resolve("terraform.tfvars.json").toFile()).path("nccl_env"),
                new com.fasterxml.jackson.core.type.TypeReference<Map<String, String>>() {}))
        .forEach((k, v) -> conf.append(k).append('=').append(v).append('\n'));
    RealTools.Result r =
        RealTools.run(dir, RUN_TIMEOUT, Map.of(), "ansible-inventory", "--host", "gke_cluster")
            .assertOk();
    JsonNode vars = JSON.readTree(r.output().substring(r.output().indexOf('{')));
    assertEquals(
        conf.toString(), vars.path("gke_checks_nccl_conf").path("__ansible_unsafe").asText());
    assertEquals(CONTEXT, vars.path("gke_checks_context").path("__ansible_unsafe").asText());
  }

  /** With GKE's own driver there is no GPU Operator to check; the GPUs still are. */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void withGkesDriverPlay03ChecksOnlyTheGpus() throws Exception {
    for (ObjectNode o : kube.all("DaemonSet")) {
      if (o.path("metadata").path("namespace").asText().equals("gpu-operator")) {
        kube.remove(o);
      }
    }
    kube.remove(kube.all("Deployment").get(0));
    kube.remove(kube.all("ClusterPolicy").get(0));
    RealTools.Result r = play(gkeDriverDir, "03-gpu-operator.yml");
    RenderedCase.assertExit(0, r);
    assertFalse(kube.requests.contains("GET /apis/nvidia.com/v1/clusterpolicies"), r.output());
    kube.put(node("gke-gke-train-h100-1", "h100", "0"));
    r = play(gkeDriverDir, "03-gpu-operator.yml");
    assertNotEquals(0, r.exitCode(), r.output());
    assertTrue(
        r.output().replaceAll("\\s+", " ").contains("gke-gke-train-h100-1 advertises 0"),
        r.output());
  }

  private static JsonNode hcl(Path file) throws Exception {
    return JSON.readTree(
        RealTools.run(
                file.getParent(),
                RUN_TIMEOUT,
                Map.of(),
                RealTools.hcl2json().toString(),
                file.toString())
            .assertOk()
            .output());
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aHealthyClusterPassesPlays03To05AndTheJobsAreGone() throws Exception {
    RealTools.Result r = play("site.yml");
    RenderedCase.assertExit(0, r);
    for (String host :
        List.of(
            "gke_cluster",
            "gke_nodepool_h100",
            "gke_nodepool_a100_spot",
            "gke_nodepool_l4_infer")) {
      assertEquals(0, RealTools.recap(r.output(), host).get("failed"), r.output());
    }
    assertTrue(
        r.output()
            .contains(
                "node pool h100: 8 GPUs, dcgmi diag -r 1 passed, all_reduce busbw"
                    + " 400.00 GB/s at 8589934592 B"),
        r.output());

    // One Job per pool, pinned to it, asking for all of a node's GPUs (one replica where the pool
    // time-slices), tolerating its taints; and the all-reduce across a100-spot's two nodes (the
    // one pool of two or more nodes with whole GPUs).
    assertEquals(4, kube.createdJobs.size(), kube.createdJobs::toString);
    List<JsonNode> indexed = new ArrayList<>();
    for (JsonNode job : kube.createdJobs) {
      if (job.path("spec").path("completionMode").asText().equals("Indexed")) {
        indexed.add(job);
        continue;
      }
      JsonNode pod = job.path("spec").path("template").path("spec");
      String pool = pod.path("nodeSelector").path("cloud.google.com/gke-nodepool").asText();
      assertEquals("gpugen-validate-" + pool, job.path("metadata").path("name").asText());
      assertEquals(
          pool.equals("l4-infer") ? "1" : "8",
          pod.path("containers")
              .path(0)
              .path("resources")
              .path("limits")
              .path("nvidia.com/gpu")
              .asText(),
          job::toString);
      assertEquals(
          "1",
          pod.path("initContainers").path(0).path("env").path(0).path("value").asText(),
          job::toString);
      // One DCGM host engine per node: with the GPU Operator, dcgmi uses the operator's engine
      // through its Service and starts none of its own.
      JsonNode diag = pod.path("initContainers").path(0);
      String script = diag.path("command").path(2).asText();
      assertTrue(script.contains("dcgmi diag --host \"$GPUGEN_DCGM_HOST\""), job::toString);
      assertFalse(script.contains("nv-hostengine"), job::toString);
      assertEquals(
          "GPUGEN_DCGM_HOST", diag.path("env").path(1).path("name").asText(), job::toString);
      assertEquals("nvidia-dcgm.gpu-operator.svc", diag.path("env").path(1).path("value").asText());
      // dcgmi of the engine's own release: GPU Operator v25.10.1 runs DCGM 4.4.2 (dcgm.version,
      // NVIDIA/gpu-operator v25.10.1 deployments/gpu-operator/values.yaml).
      assertEquals(
          "nvcr.io/nvidia/cloud-native/dcgm:4.4.2-1-ubuntu22.04",
          diag.path("image").asText(),
          job::toString);
      // NCCL reads /etc/nccl.conf in its container: the node's file, mounted read-only.
      JsonNode mount = pod.path("containers").path(0).path("volumeMounts").path(0);
      assertEquals("/etc/nccl.conf", mount.path("mountPath").asText(), job::toString);
      assertTrue(mount.path("readOnly").asBoolean(), job::toString);
      JsonNode volume = pod.path("volumes").path(0);
      assertEquals(mount.path("name").asText(), volume.path("name").asText(), job::toString);
      assertEquals("/etc/nccl.conf", volume.path("hostPath").path("path").asText());
      assertEquals("File", volume.path("hostPath").path("type").asText());
      assertEquals(0, job.path("spec").path("backoffLimit").asInt(-1));
      assertTrue(job.path("spec").path("ttlSecondsAfterFinished").isInt(), job::toString);
      if (pool.equals("h100")) {
        JsonNode toleration = pod.path("tolerations").path(0);
        assertEquals("nvidia.com/gpu", toleration.path("key").asText(), job::toString);
        assertEquals("Equal", toleration.path("operator").asText());
        assertEquals("present", toleration.path("value").asText());
        assertEquals("NoSchedule", toleration.path("effect").asText());
      } else {
        assertTrue(pool.equals("a100-spot") || pool.equals("l4-infer"), pool);
        assertEquals(0, pod.path("tolerations").size(), job::toString);
      }
    }
    assertEquals(1, indexed.size(), indexed::toString);
    JsonNode allReduce = indexed.get(0);
    JsonNode spec = allReduce.path("spec");
    assertEquals("gpugen-allreduce-a100-spot", allReduce.path("metadata").path("name").asText());
    assertEquals(2, spec.path("completions").asInt());
    assertEquals(2, spec.path("parallelism").asInt());
    JsonNode pod = spec.path("template").path("spec");
    assertEquals("gpugen-allreduce-a100-spot", pod.path("subdomain").asText());
    assertEquals(
        "a100-spot", pod.path("nodeSelector").path("cloud.google.com/gke-nodepool").asText());
    JsonNode container = pod.path("containers").path(0);
    assertEquals("8", container.path("resources").path("limits").path("nvidia.com/gpu").asText());
    assertEquals(
        "/etc/nccl.conf", container.path("volumeMounts").path(0).path("mountPath").asText());
    assertTrue(
        container.path("command").path(2).asText().contains("torchrun"), container::toString);
    assertTrue(
        r.output()
            .replaceAll("\\s+", " ")
            .contains("node pool a100-spot: all-reduce across 2 nodes, busbw 42.00 GB/s"),
        r.output());
    assertTrue(kube.all("Job").isEmpty(), "the Jobs are deleted afterwards");
    assertTrue(kube.all("Pod").isEmpty(), "and their pods with them");
    assertTrue(kube.all("Service").isEmpty(), "and the all-reduce's Service");
    // Discovery, then the calls: the client really spoke the API.
    assertTrue(
        kube.requests.contains("GET /apis/nvidia.com/v1/clusterpolicies"), kube.requests::toString);
    assertTrue(kube.requests.contains("POST /apis/batch/v1/namespaces/default/jobs"));
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aPoolAdvertisingFewerGpusFailsPlay03NamingThePool() throws Exception {
    kube.put(node("gke-gke-train-a100-spot-1", "a100-spot", "4"));
    RealTools.Result r = play("03-gpu-operator.yml");
    assertNotEquals(0, r.exitCode(), r.output());
    String flat = r.output().replaceAll("\\s+", " ");
    assertTrue(
        flat.contains(
            "node pool a100-spot: every node must advertise 8 nvidia.com/gpu allocatable (8 GPUs x"
                + " 1 time-slicing replicas), at least 2 node(s); found 2 node(s):"
                + " gke-gke-train-a100-spot-0 advertises 8, gke-gke-train-a100-spot-1 advertises"
                + " 4"),
        r.output());
    assertEquals(1, RealTools.recap(r.output(), "gke_nodepool_a100_spot").get("failed"));
    assertEquals(0, RealTools.recap(r.output(), "gke_nodepool_h100").get("failed"));
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aClusterPolicyNotReadyFailsPlay03() throws Exception {
    ObjectNode policy = object("ClusterPolicy", null, "cluster-policy");
    policy.putObject("status").put("state", "notReady");
    kube.put(policy);
    RealTools.Result r = play("03-gpu-operator.yml");
    assertNotEquals(0, r.exitCode(), r.output());
    assertTrue(
        r.output().replaceAll("\\s+", " ").contains("ClusterPolicy cluster-policy state notReady"),
        r.output());
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aHandEditedNcclConfigMapFailsPlay04() throws Exception {
    ObjectNode cm = object("ConfigMap", "kube-system", "gpugen-nccl-conf");
    cm.putObject("data").put("nccl.conf", "NCCL_DEBUG=INFO\n");
    kube.put(cm);
    RealTools.Result r = play("04-network-tuning.yml");
    assertNotEquals(0, r.exitCode(), r.output());
    assertTrue(
        r.output()
            .replaceAll("\\s+", " ")
            .contains(
                // As Ansible prints the message: JSON, so quotes and the newline are escaped.
                "ConfigMap kube-system/gpugen-nccl-conf key nccl.conf is \\\"NCCL_DEBUG=INFO\\\\n\\\","
                    + " the spec's nccl.env gives \\\"NCCL_DEBUG=WARN\\\\n\\\""),
        r.output());
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void anNcclDaemonSetMissingANodeFailsPlay04() throws Exception {
    kube.put(workload("DaemonSet", "kube-system", "gpugen-nccl-conf", 5));
    RealTools.Result r = play("04-network-tuning.yml");
    assertNotEquals(0, r.exitCode(), r.output());
    assertTrue(
        r.output()
            .replaceAll("\\s+", " ")
            .contains(
                "DaemonSet kube-system/gpugen-nccl-conf is ready on 5 and up to date on 5 of 5"
                    + " scheduled node(s), for 6 GPU node(s)"),
        r.output());
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aJobBelowTheBandwidthThresholdFailsPlay05WithTheFigure() throws Exception {
    kube.busBandwidth.put("h100", "312.40");
    RealTools.Result r = play("05-validation.yml");
    assertNotEquals(0, r.exitCode(), r.output());
    assertTrue(
        r.output()
            .replaceAll("\\s+", " ")
            .contains(
                "node pool h100: nccl all_reduce_perf measured 312.40 GB/s busbw at 8589934592 B,"
                    + " 0 wrong (exit 0), expected busbw >= 350 GB/s at 8G"),
        r.output());
    assertEquals(1, RealTools.recap(r.output(), "gke_nodepool_h100").get("failed"));
    assertEquals(0, RealTools.recap(r.output(), "gke_nodepool_a100_spot").get("failed"));
    assertTrue(kube.all("Job").isEmpty(), "a failed validation deletes its Job too");
  }

  /**
   * The all-reduce across a pool's nodes is held to the pool's multi-node threshold, and the
   * failure carries the figure; the Job and its Service are deleted all the same.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void anAllReduceAcrossNodesBelowItsThresholdFailsPlay05WithTheFigure() throws Exception {
    kube.multiNodeBandwidth.put("a100-spot", "12.50");
    RealTools.Result r = play("05-validation.yml");
    assertNotEquals(0, r.exitCode(), r.output());
    assertTrue(
        r.output()
            .replaceAll("\\s+", " ")
            .contains(
                "node pool a100-spot: all-reduce across 2 nodes measured 12.50 GB/s busbw"
                    + " (Job Complete, rank 0's torchrun exit 0), expected busbw >= 40 GB/s"
                    + " at 8G B"),
        r.output());
    assertEquals(1, RealTools.recap(r.output(), "gke_nodepool_a100_spot").get("failed"));
    assertEquals(0, RealTools.recap(r.output(), "gke_nodepool_h100").get("failed"));
    assertTrue(kube.all("Job").isEmpty(), kube.all("Job")::toString);
    assertTrue(kube.all("Service").isEmpty(), kube.all("Service")::toString);
  }

  /**
   * A rank whose torchrun fails fails its pod and so the Job (the pod exits with torchrun's status,
   * backoffLimit 0): play 05 stops waiting at once and fails naming the pool, and the Job and its
   * Service are deleted all the same.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aFailingRankFailsTheAllReduceJobAndPlay05() throws Exception {
    kube.multiNodeNcclError.add("a100-spot");
    RealTools.Result r = play("05-validation.yml");
    assertNotEquals(0, r.exitCode(), r.output());
    assertEquals("Failed", kube.jobOutcome.get("gpugen-allreduce-a100-spot"), r.output());
    assertTrue(
        r.output()
            .replaceAll("\\s+", " ")
            .contains(
                "node pool a100-spot: all-reduce across 2 nodes measured 42.00 GB/s busbw"
                    + " (Job Failed, rank 0's torchrun exit 0)"),
        r.output());
    assertEquals(1, RealTools.recap(r.output(), "gke_nodepool_a100_spot").get("failed"));
    assertTrue(kube.all("Job").isEmpty(), kube.all("Job")::toString);
    assertTrue(kube.all("Service").isEmpty(), kube.all("Service")::toString);
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aJobThatDoesNotCompleteFailsPlay05NamingThePool() throws Exception {
    kube.completeJobs = false;
    List<String> cmd = new ArrayList<>(List.of("ansible-playbook", "--limit", "pool_h100"));
    cmd.addAll(FAST);
    cmd.addAll(List.of("-e", "gke_checks_job_timeout_seconds=2", "05-validation.yml"));
    RealTools.Result r =
        RealTools.run(dir, RUN_TIMEOUT, Map.of("KUBECONFIG", kubeconfig.toString()), cmd);
    assertNotEquals(0, r.exitCode(), r.output());
    assertTrue(
        r.output()
            .replaceAll("\\s+", " ")
            .contains(
                "node pool h100: validation Job default/gpugen-validate-h100 did not complete"
                    + " within 2 s"),
        r.output());
    assertTrue(r.output().contains("\\\"active\\\": 1"), r.output());
    assertTrue(kube.all("Job").isEmpty(), "the Job is deleted all the same");
  }

  /** Runs a playbook from the rendered folder with KUBECONFIG pointing at the stand-in. */
  private RealTools.Result play(String playbook) throws Exception {
    return play(dir, playbook);
  }

  private RealTools.Result play(Path ansibleDir, String playbook) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("ansible-playbook"));
    cmd.addAll(FAST);
    cmd.add(playbook);
    return RealTools.run(ansibleDir, RUN_TIMEOUT, Map.of("KUBECONFIG", kubeconfig.toString()), cmd);
  }

  private static ObjectNode object(String kind, String namespace, String name) {
    ObjectNode o = JSON.createObjectNode();
    o.put("kind", kind);
    ObjectNode meta = o.putObject("metadata");
    meta.put("name", name);
    if (namespace != null) {
      meta.put("namespace", namespace);
    }
    return o;
  }

  /** A GKE GPU node of {@code pool} advertising {@code gpus} allocatable nvidia.com/gpu. */
  private static ObjectNode node(String name, String pool, String gpus) {
    ObjectNode n = object("Node", null, name);
    ObjectNode labels = ((ObjectNode) n.get("metadata")).putObject("labels");
    labels.put("cloud.google.com/gke-nodepool", pool);
    labels.put(
        "cloud.google.com/gke-accelerator",
        pool.equals("h100") ? "nvidia-h100-80gb" : "nvidia-a100-80gb");
    ObjectNode status = n.putObject("status");
    status.putObject("allocatable").put("cpu", "207").put("nvidia.com/gpu", gpus);
    status.putObject("capacity").put("cpu", "208").put("nvidia.com/gpu", "8");
    return n;
  }

  /**
   * A rolled-out Deployment (one replica) or a DaemonSet that is ready on {@code nodes} nodes; a
   * DaemonSet of the NCCL settings with fewer nodes than GPU nodes is what a broken roll-out looks
   * like.
   */
  private static ObjectNode workload(String kind, String namespace, String name, int nodes) {
    ObjectNode o = object(kind, namespace, name);
    ObjectNode status = o.putObject("status");
    status.put("observedGeneration", 1);
    if (kind.equals("Deployment")) {
      o.putObject("spec").put("replicas", 1);
      status.put("replicas", 1).put("availableReplicas", 1).put("updatedReplicas", 1);
      status.put("readyReplicas", 1);
    } else {
      status.put("desiredNumberScheduled", nodes).put("currentNumberScheduled", nodes);
      status.put("numberReady", nodes).put("updatedNumberScheduled", nodes);
      status.put("numberAvailable", nodes);
    }
    return o;
  }
}
