package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.TestSpecs;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.testing.Records;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.snakeyaml.engine.v2.api.ConstructNode;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * Every Kubernetes workload gpugen installs gets a node. For each golden and example with {@code
 * kubernetes:}, the render is read as the cluster will see it:
 *
 * <ul>
 *   <li>the workloads: the GPU Operator's Deployment, NFD's master, garbage collector and worker,
 *       every operand DaemonSet, the EFA device plugin, CoreDNS and the CNI where gpugen installs
 *       them; each with its effective tolerations, node selector and required node affinity, which
 *       are the rendered values merged over the chart's defaults the way Helm merges them. The
 *       defaults are facts copied from the charts at the versions the render pins, with their
 *       source, in src/test/resources/scheduling/;
 *   <li>the nodes the spec creates, with their labels and taints: the pool's (as play 03 or the EKS
 *       join sets them), the ones the kubelet sets itself on that path (no instance type without a
 *       cloud provider), kubeadm's control plane, and what NFD and the GPU Operator add to a GPU
 *       node.
 * </ul>
 *
 * <p>Each Deployment must fit at least one node; each DaemonSet every node that needs it (the
 * device plugin, DCGM exporter, GPU feature discovery, validator and NFD worker every GPU node; the
 * EFA plugin every EFA node; the CNI every node). The semantics are the scheduler's: a NoSchedule
 * or NoExecute taint keeps off a pod without a matching toleration, a nodeSelector needs every
 * label, a required node affinity one matching term.
 */
class SchedulingTest {
  private static final Path FACTS = Path.of("src/test/resources/scheduling");
  private static final Path UPSTREAM = Path.of("src/test/resources/upstream");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The specs with a kubernetes: section gpugen renders node plays for. */
  static List<Path> specs() throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(Path.of("src/test/resources/golden"))) {
      s.sorted().map(d -> d.resolve("spec.yaml")).forEach(out::add);
    }
    try (Stream<Path> s = Files.list(Path.of("examples"))) {
      s.sorted().map(d -> d.resolve("cluster.yaml")).filter(Files::exists).forEach(out::add);
    }
    out.removeIf(
        p -> {
          try {
            // kubernetes: names a cluster; a gcp spec's that holds only systemPool does not.
            return dev.gpugen.TestSpecs.read(p, java.util.Optional.empty()).kubernetes().isEmpty();
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
    return out;
  }

  @TestFactory
  Stream<DynamicTest> everyWorkloadGpugenInstallsHasANode() throws IOException {
    List<Path> specs = specs();
    assertTrue(specs.size() >= 10, specs::toString);
    return specs.stream()
        .map(
            p ->
                DynamicTest.dynamicTest(
                    p.toString(),
                    () -> {
                      Cluster c = Cluster.of(p.toString(), read(p));
                      assertEquals(List.of(), c.problems(), c::describe);
                    }));
  }

  /** The reference example (EKS, one pool tainted nvidia.com/gpu=present:NoSchedule). */
  @Test
  void theReferenceExampleRunsTheOperatorNfdAndTheDevicePluginOnItsTaintedPool() throws Exception {
    Cluster c = Cluster.of("aws-h100", read(Path.of("examples/aws-h100/cluster.yaml")));
    assertEquals(List.of(), c.problems(), c::describe);
    Node h100 = c.nodes.get(0);
    assertEquals("NoSchedule", h100.taints.get(0).effect(), c::describe);
    for (String w :
        List.of("nfd-worker", "nvidia-device-plugin-daemonset", "aws-efa-k8s-device-plugin")) {
      assertTrue(c.workload(w).fits(h100).isEmpty(), w + "\n" + c.describe());
    }
    // Every GPU pool tainted: the system pool by default, where the controllers run untouched.
    Node system =
        c.nodes.stream().filter(n -> n.name.equals("gpugen-system-0")).findFirst().orElseThrow();
    assertEquals(List.of(), system.taints, c::describe);
    for (String w : List.of("gpu-operator", "nfd-master", "nfd-gc", "coredns")) {
      assertTrue(c.workload(w).fits(system).isEmpty(), w + "\n" + c.describe());
    }
  }

  /**
   * The reference example with kubernetes.systemPool.enabled: false: no system node, so the
   * controllers tolerate the pool's taint and run on the GPU nodes (k8s-system-pool-off warns).
   */
  @Test
  void withTheSystemPoolOffTheControllersRunOnTheTaintedGpuNodes() throws Exception {
    ClusterSpec spec = TestSpecs.read(Path.of("examples/aws-h100/cluster.yaml"), Optional.empty());
    ClusterSpec off = Records.with(spec, "systemPool.enabled", false);
    Cluster c = Cluster.of("aws-h100, system pool off", render(off));
    assertEquals(List.of(), c.problems(), c::describe);
    assertTrue(c.nodes.stream().allMatch(n -> n.gpu), c::describe);
    Node h100 = c.nodes.get(0);
    for (String w : List.of("gpu-operator", "nfd-master", "nfd-gc", "coredns")) {
      assertTrue(c.workload(w).fits(h100).isEmpty(), w + "\n" + c.describe());
    }
  }

  /** A taint on the nodes that the render does not tolerate: the check names what it keeps off. */
  @Test
  void aPlantedTaintWithoutATolerationFailsNamingTheWorkloadsAndTheNode() throws Exception {
    Cluster c = Cluster.of("aws-kubeadm", read(golden("aws-kubeadm")));
    assertEquals(List.of(), c.problems(), c::describe);
    Node gpu = c.nodes.stream().filter(n -> n.gpu).findFirst().orElseThrow();
    gpu.taints.add(new Taint("example.com/planted", "yes", "NoSchedule"));
    List<String> problems = c.problems();
    for (String w :
        List.of(
            "nfd-worker",
            "nvidia-device-plugin-daemonset",
            "nvidia-dcgm-exporter",
            "aws-efa-k8s-device-plugin")) {
      assertTrue(
          problems.contains(
              "DaemonSet "
                  + w
                  + " cannot run on node "
                  + gpu.name
                  + ": taint example.com/planted=yes:NoSchedule not tolerated"),
          problems::toString);
    }
    // calico-node tolerates every NoSchedule taint: not reported.
    assertFalse(problems.toString().contains("calico-node"), problems::toString);
  }

  /**
   * What gpugen rendered before it gave the controllers tolerations: on the reference example the
   * operator and NFD's master and garbage collector have no node (helm --wait times out).
   */
  @Test
  void withoutTheRenderedTolerationsTheReferenceOperatorHasNoNode() throws Exception {
    ClusterSpec spec = TestSpecs.read(Path.of("examples/aws-h100/cluster.yaml"), Optional.empty());
    Cluster c =
        Cluster.of(
            "aws-h100, system pool off", render(Records.with(spec, "systemPool.enabled", false)));
    Cluster stripped = c.withoutValues("operator.tolerations", "node-feature-discovery");
    List<String> problems = stripped.problems();
    for (String w : List.of("gpu-operator", "nfd-master", "nfd-gc")) {
      assertTrue(
          problems.stream().anyMatch(p -> p.startsWith("Deployment " + w + " fits no node")),
          problems::toString);
    }
  }

  /**
   * Any taint besides nvidia.com/gpu keeps NFD's worker and the operands off a node unless the
   * render tolerates it: the aws-eks-pull golden's dedicated:NoExecute.
   */
  @Test
  void aDedicatedNoExecuteTaintIsToleratedByEveryNodeDaemonSet() throws Exception {
    Cluster c = Cluster.of("aws-eks-pull", read(golden("aws-eks-pull")));
    assertEquals(List.of(), c.problems(), c::describe);
    Cluster stripped = c.withoutValues("daemonsets", "node-feature-discovery");
    List<String> problems = stripped.problems();
    assertTrue(
        problems.contains(
            "DaemonSet nvidia-device-plugin-daemonset cannot run on node h100-0: taint"
                + " dedicated:NoExecute not tolerated"),
        problems::toString);
    assertTrue(
        problems.contains(
            "DaemonSet nfd-worker cannot run on node h100-0: taint dedicated:NoExecute not"
                + " tolerated"),
        problems::toString);
  }

  /**
   * kubeadm on AWS: the kubelet has no cloud provider, so no node.kubernetes.io/instance-type of
   * its own; play 03 labels the GPU nodes with it, which the EFA plugin's affinity selects.
   */
  @Test
  void onKubeadmTheEfaPluginFindsItsNodesByTheInstanceTypePlay03Sets() throws Exception {
    Cluster c = Cluster.of("aws-kubeadm", read(golden("aws-kubeadm")));
    Node gpu = c.nodes.stream().filter(n -> n.efa).findFirst().orElseThrow();
    assertEquals("p5.48xlarge", gpu.labels.get("node.kubernetes.io/instance-type"), c::describe);
    assertEquals(List.of(), c.workload("aws-efa-k8s-device-plugin").fits(gpu));
    gpu.labels.remove("node.kubernetes.io/instance-type");
    assertEquals(
        List.of(
            "no required node affinity term matches (node.kubernetes.io/instance-type In"
                + " [c5n.18xlarge, ...])"),
        c.workload("aws-efa-k8s-device-plugin").fits(gpu));
  }

  /**
   * Where every GPU pool is tainted and gpugen knows no other node, the controllers tolerate the
   * pools' taints; with an untainted pool they need nothing more than their charts' own. Both
   * tolerate play 05's verdict taint, which every GPU node may carry.
   */
  @Test
  void theControllersTolerateThePoolsTaintsOnlyWhereTheyHaveNoOtherNode() throws Exception {
    ClusterSpec tainted =
        TestSpecs.read(Path.of("examples/aws-h100/cluster.yaml"), Optional.empty());
    Map<String, Object> master =
        Map.of(
            "key", "node-role.kubernetes.io/master",
            "operator", "Equal",
            "value", "",
            "effect", "NoSchedule");
    Map<String, Object> controlPlane =
        Map.of(
            "key", "node-role.kubernetes.io/control-plane",
            "operator", "Equal",
            "value", "",
            "effect", "NoSchedule");
    Map<String, Object> pool =
        Map.of(
            "key", "nvidia.com/gpu",
            "operator", "Equal",
            "value", "present",
            "effect", "NoSchedule");
    // Play 05's verdict taint, which every node of the cluster may carry.
    Map<String, Object> verdict =
        Map.of("key", "gpugen.dev/validation", "operator", "Exists", "effect", "NoSchedule");
    // Every GPU pool tainted on EKS: the system pool by default, where the chart's own do.
    assertEquals(null, at(GpuOperatorValues.of(TestSpecs.plan(tainted)), "operator.tolerations"));
    ClusterSpec off = Records.with(tainted, "systemPool.enabled", false);
    assertEquals(
        List.of(master, controlPlane, pool, verdict),
        at(GpuOperatorValues.of(TestSpecs.plan(off)), "operator.tolerations"));
    // Read from YAML, an untainted spec resolves the system pool's default to off.
    ClusterSpec untainted =
        Records.with(tainted, "pools[0].taints", List.of(), "systemPool.enabled", false);
    assertEquals(
        List.of(master, controlPlane, verdict),
        at(GpuOperatorValues.of(TestSpecs.plan(untainted)), "operator.tolerations"));
  }

  /**
   * kubeadm with every GPU pool tainted: the controllers go to the control plane, whose taint the
   * operator and NFD's master tolerate by their charts and NFD's garbage collector by gpugen's
   * values; they are not given the GPU pools' taints.
   */
  @Test
  void onKubeadmWithEveryPoolTaintedTheControllersRunOnTheControlPlane() throws Exception {
    ClusterSpec spec = TestSpecs.read(golden("aws-kubeadm"), Optional.empty());
    // The reference example's taint, nvidia.com/gpu=present:NoSchedule.
    List<ClusterSpec.Taint> taint =
        TestSpecs.read(Path.of("examples/aws-h100/cluster.yaml"), Optional.empty())
            .pools()
            .get(0)
            .taints();
    ClusterSpec tainted = Records.with(spec, "pools[0].taints", taint);
    Cluster c = Cluster.of("aws-kubeadm, tainted", render(tainted));
    assertEquals(List.of(), c.problems(), c::describe);
    Node gpu = c.nodes.get(0);
    Node controlPlane = c.nodes.get(1);
    assertEquals("control-plane-0", controlPlane.name);
    for (String w : List.of("gpu-operator", "nfd-master", "nfd-gc", "coredns")) {
      assertEquals(List.of(), c.workload(w).fits(controlPlane), w);
      assertFalse(c.workload(w).fits(gpu).isEmpty(), w + " would also run on the GPU nodes");
    }
    List<String> problems = c.withoutValues("node-feature-discovery.gc").problems();
    assertTrue(
        problems.contains(
            "Deployment nfd-gc fits no node (h100-0: taint nvidia.com/gpu=present:NoSchedule not"
                + " tolerated, taint gpugen.dev/validation=failed:NoSchedule not tolerated;"
                + " control-plane-0: taint node-role.kubernetes.io/control-plane:NoSchedule not"
                + " tolerated)"),
        problems::toString);
  }

  // --- the model ---------------------------------------------------------------------------------

  static Path golden(String name) {
    return Path.of("src/test/resources/golden", name, "spec.yaml");
  }

  /** A spec file rendered in memory (a golden's env.txt selects its overlay). */
  static RenderedTree read(Path spec) throws IOException {
    Path env = spec.resolveSibling("env.txt");
    Optional<String> envName =
        Files.exists(env) ? Optional.of(Files.readString(env).trim()) : Optional.empty();
    return render(TestSpecs.read(spec, envName));
  }

  static RenderedTree render(ClusterSpec spec) {
    ClusterPlan plan = TestSpecs.plan(spec);
    return TestSpecs.gpugen().render(plan, Templates.load(Optional.empty()), "spec.yaml");
  }

  /** A node taint. */
  record Taint(String key, String value, String effect) {
    @Override
    public String toString() {
      return key + (value.isEmpty() ? "" : "=" + value) + ":" + effect;
    }
  }

  /** A node the spec creates. */
  static final class Node {
    final String name;
    final boolean gpu;
    final boolean efa;
    boolean rdma;
    final Map<String, String> labels = new TreeMap<>();
    final List<Taint> taints = new ArrayList<>();

    Node(String name, boolean gpu, boolean efa) {
      this.name = name;
      this.gpu = gpu;
      this.efa = efa;
    }

    @Override
    public String toString() {
      return name + " labels " + labels + " taints " + taints;
    }
  }

  /**
   * A workload with its effective scheduling.
   *
   * @param runsOn for a DaemonSet, the nodes it must run on: gpu, efa, all, or none
   * @param requiredTerms the required node affinity's terms (one must match); empty: no affinity
   */
  record Workload(
      String kind,
      String name,
      String source,
      List<Map<String, Object>> tolerations,
      Map<String, Object> nodeSelector,
      List<List<Map<String, Object>>> requiredTerms,
      String runsOn) {

    /** Why the workload cannot run on {@code n}; empty when it can. */
    List<String> fits(Node n) {
      List<String> why = new ArrayList<>();
      for (Taint t : n.taints) {
        if ((t.effect().equals("NoSchedule") || t.effect().equals("NoExecute"))
            && tolerations.stream().noneMatch(tol -> tolerates(tol, t))) {
          why.add("taint " + t + " not tolerated");
        }
      }
      nodeSelector.forEach(
          (k, v) -> {
            if (!String.valueOf(v).equals(n.labels.get(k))) {
              why.add("nodeSelector " + k + "=" + v + " not among its labels");
            }
          });
      if (!requiredTerms.isEmpty() && requiredTerms.stream().noneMatch(t -> matches(t, n))) {
        why.add("no required node affinity term matches (" + brief(requiredTerms.get(0)) + ")");
      }
      return why;
    }

    /** The rule of k8s.io/api core/v1 Toleration.ToleratesTaint. */
    static boolean tolerates(Map<String, Object> tol, Taint t) {
      String effect = str(tol.get("effect"));
      String key = str(tol.get("key"));
      String operator = str(tol.get("operator"));
      if (!effect.isEmpty() && !effect.equals(t.effect())) {
        return false;
      }
      if (!key.isEmpty() && !key.equals(t.key())) {
        return false;
      }
      return operator.equals("Exists")
          || (operator.isEmpty() || operator.equals("Equal"))
              && str(tol.get("value")).equals(t.value());
    }

    private static boolean matches(List<Map<String, Object>> term, Node n) {
      for (Map<String, Object> e : term) {
        String key = str(e.get("key"));
        List<String> values = new ArrayList<>();
        if (e.get("values") instanceof List<?> l) {
          l.forEach(v -> values.add(str(v)));
        }
        String label = n.labels.get(key);
        boolean ok =
            switch (str(e.get("operator"))) {
              case "In" -> label != null && values.contains(label);
              case "NotIn" -> label == null || !values.contains(label);
              case "Exists" -> label != null;
              case "DoesNotExist" -> label == null;
              default -> throw new IllegalArgumentException("operator " + e);
            };
        if (!ok) {
          return false;
        }
      }
      return true;
    }

    private static String brief(List<Map<String, Object>> term) {
      Map<String, Object> e = term.get(0);
      List<?> values = e.get("values") instanceof List<?> l ? l : List.of();
      return e.get("key")
          + " "
          + e.get("operator")
          + " ["
          + (values.isEmpty() ? "" : values.get(0) + (values.size() > 1 ? ", ..." : ""))
          + "]";
    }
  }

  /** The nodes and workloads of one render. */
  static final class Cluster {
    final String label;
    final List<Node> nodes = new ArrayList<>();
    final List<Workload> workloads = new ArrayList<>();
    private final RenderedTree tree;
    private final List<String> strip;

    private Cluster(String label, RenderedTree tree, List<String> strip) {
      this.label = label;
      this.tree = tree;
      this.strip = strip;
    }

    static Cluster of(String label, RenderedTree tree) throws IOException {
      Cluster c = new Cluster(label, tree, List.of());
      c.build();
      return c;
    }

    /** The same render with some GPU Operator values taken out (what an older render lacked). */
    Cluster withoutValues(String... paths) throws IOException {
      Cluster c = new Cluster(label, tree, List.of(paths));
      c.build();
      return c;
    }

    Workload workload(String name) {
      return workloads.stream()
          .filter(w -> w.name().equals(name))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no workload " + name + "\n" + describe()));
    }

    /** Every Deployment without a node and every DaemonSet missing from a node that needs it. */
    List<String> problems() {
      List<String> out = new ArrayList<>();
      for (Workload w : workloads) {
        if (w.kind().equals("Deployment")) {
          if (nodes.stream().noneMatch(n -> w.fits(n).isEmpty())) {
            List<String> why = new ArrayList<>();
            nodes.forEach(n -> why.add(n.name + ": " + String.join(", ", w.fits(n))));
            out.add("Deployment " + w.name() + " fits no node (" + String.join("; ", why) + ")");
          }
          continue;
        }
        for (Node n : nodes) {
          boolean needs =
              switch (w.runsOn()) {
                case "gpu" -> n.gpu;
                case "efa" -> n.efa;
                case "rdma" -> n.rdma;
                case "all" -> true;
                default -> false;
              };
          if (needs) {
            for (String why : w.fits(n)) {
              out.add("DaemonSet " + w.name() + " cannot run on node " + n.name + ": " + why);
            }
          }
        }
      }
      return out;
    }

    String describe() {
      StringBuilder b = new StringBuilder(label).append("\nnodes:\n");
      nodes.forEach(n -> b.append("  ").append(n).append('\n'));
      b.append("workloads:\n");
      workloads.forEach(
          w ->
              b.append("  ")
                  .append(w.kind())
                  .append(' ')
                  .append(w.name())
                  .append(" (")
                  .append(w.source())
                  .append(") tolerations ")
                  .append(w.tolerations())
                  .append(" nodeSelector ")
                  .append(w.nodeSelector())
                  .append(w.requiredTerms().isEmpty() ? "" : " required affinity")
                  .append('\n'));
      return b.toString();
    }

    @SuppressWarnings("unchecked")
    private void build() throws IOException {
      Map<String, Object> all = yaml("ansible/group_vars/all.yml");
      Map<String, Object> roleDefaults = yaml("ansible/roles/gpu_operator/defaults/main.yml");
      Map<String, Object> vars = new LinkedHashMap<>(roleDefaults);
      vars.putAll(all);
      Map<String, Object> kubernetesFacts = facts("kubernetes.yaml");
      String distribution = str(all.get("kubernetes_checks_distribution"));
      boolean eks = distribution.equals("eks");
      boolean kubeadm = distribution.equals("kubeadm");
      JsonNode tfvars =
          tree.files().containsKey("terraform/terraform.tfvars.json")
              ? JSON.readTree(text("terraform/terraform.tfvars.json"))
              : JSON.createObjectNode();

      // The GPU nodes: one per pool stands for all of its nodes.
      for (String file : tree.files().keySet()) {
        if (!file.startsWith("ansible/group_vars/pool_")) {
          continue;
        }
        Map<String, Object> pool = yaml(file);
        String poolName = str(pool.get("gpugen_pool"));
        String fabric = str(pool.get("nccl_network_fabric"));
        Node n = new Node(poolName + "-0", true, fabric.equals("efa"));
        n.rdma = fabric.equals("infiniband") || fabric.equals("roce");
        Map<String, Object> kubelet = (Map<String, Object>) kubernetesFacts.get("kubelet");
        ((Map<String, Object>) kubelet.get("labels"))
            .forEach((k, v) -> n.labels.put(k, str(v).replace("{node}", n.name)));
        if (eks) {
          // EKS's cloud controller labels the node; bootstrap.sh registers it with the pool's
          // labels (plus gpugen-pool) and taints (eks.tf, from terraform.tfvars.json).
          JsonNode tfPool = tfvars.path("pools").path(poolName);
          String type = tfPool.path("instance_type").asText();
          ((Map<String, Object>) kubelet.get("cloudProviderLabels"))
              .forEach(
                  (k, v) ->
                      n.labels.put(
                          k,
                          str(v)
                              .replace("{instanceType}", type)
                              .replace("{region}", tfvars.path("region").asText())
                              .replace("{zone}", tfvars.path("availability_zone").asText())));
          tfPool
              .path("node_labels")
              .properties()
              .forEach(e -> n.labels.put(e.getKey(), e.getValue().asText()));
          n.labels.put("gpugen-pool", poolName);
          for (JsonNode t : tfPool.path("node_taints")) {
            n.taints.add(
                new Taint(
                    t.path("key").asText(), t.path("value").asText(), t.path("effect").asText()));
          }
        }
        // Play 03 labels and taints every GPU node through the API (on EKS the same values).
        ((Map<String, Object>) pool.getOrDefault("gpu_operator_node_labels", Map.of()))
            .forEach((k, v) -> n.labels.put(k, str(v)));
        for (Map<String, Object> t :
            (List<Map<String, Object>>) pool.getOrDefault("gpu_operator_node_taints", List.of())) {
          Taint taint = new Taint(str(t.get("key")), str(t.get("value")), str(t.get("effect")));
          if (!n.taints.contains(taint)) {
            n.taints.add(taint);
          }
        }
        // Play 05's verdict (ValidationState): a gated pool's nodes register pending, and any node
        // may fail; the worst case, every GPU node failed, must still run its own agents.
        if (pool.containsKey("validation_scheduling_gate")) {
          if (Boolean.TRUE.equals(pool.get("validation_scheduling_gate"))) {
            n.taints.add(new Taint("gpugen.dev/validation", "pending", "NoSchedule"));
          } else {
            n.taints.add(new Taint("gpugen.dev/validation", "failed", "NoSchedule"));
          }
        }
        nodes.add(n);
      }
      assertFalse(nodes.isEmpty(), label + ": no GPU pool in the render");
      if (kubeadm) {
        Map<String, Object> cp = (Map<String, Object>) kubernetesFacts.get("kubeadmControlPlane");
        Node n = new Node("control-plane-0", false, false);
        ((Map<String, Object>) ((Map<String, Object>) kubernetesFacts.get("kubelet")).get("labels"))
            .forEach((k, v) -> n.labels.put(k, str(v).replace("{node}", n.name)));
        ((Map<String, Object>) cp.get("labels")).forEach((k, v) -> n.labels.put(k, str(v)));
        for (Map<String, Object> t : (List<Map<String, Object>>) cp.get("taints")) {
          n.taints.add(new Taint(str(t.get("key")), str(t.get("value")), str(t.get("effect"))));
        }
        nodes.add(n);
      }

      // EKS's system pool (terraform.tfvars.json's pools entry with role system): no GPU, no
      // taint, joined by bootstrap.sh with its labels like the GPU pools.
      if (eks) {
        for (Map.Entry<String, JsonNode> e : tfvars.path("pools").properties()) {
          if (!e.getValue().path("role").asText().equals("system")) {
            continue;
          }
          Node n = new Node(e.getKey() + "-0", false, false);
          Map<String, Object> kubelet = (Map<String, Object>) kubernetesFacts.get("kubelet");
          ((Map<String, Object>) kubelet.get("labels"))
              .forEach((k, v) -> n.labels.put(k, str(v).replace("{node}", n.name)));
          ((Map<String, Object>) kubelet.get("cloudProviderLabels"))
              .forEach(
                  (k, v) ->
                      n.labels.put(
                          k,
                          str(v)
                              .replace(
                                  "{instanceType}", e.getValue().path("instance_type").asText())
                              .replace("{region}", tfvars.path("region").asText())
                              .replace("{zone}", tfvars.path("availability_zone").asText())));
          e.getValue()
              .path("node_labels")
              .properties()
              .forEach(l -> n.labels.put(l.getKey(), l.getValue().asText()));
          n.labels.put("gpugen-pool", e.getKey());
          for (JsonNode t : e.getValue().path("node_taints")) {
            n.taints.add(
                new Taint(
                    t.path("key").asText(), t.path("value").asText(), t.path("effect").asText()));
          }
          nodes.add(n);
        }
      }

      gpuOperator(vars);
      if (Boolean.TRUE.equals(vars.get("gpu_operator_efa_device_plugin"))) {
        efaDevicePlugin(vars);
      }
      if (Boolean.TRUE.equals(vars.get("gpu_operator_rdma_device_plugin"))) {
        // gpugen's own DaemonSet (roles/gpu_operator/tasks/main.yml): no node selector, the
        // node-level tolerations.
        String task = text("ansible/roles/gpu_operator/tasks/main.yml");
        assertTrue(
            task.contains("tolerations: \"{{ gpu_operator_rdma_tolerations }}\"")
                && !task.contains("nodeSelector"),
            "the RDMA device plugin's DaemonSet changed: update SchedulingTest");
        workloads.add(
            new Workload(
                "DaemonSet",
                "rdma-shared-dp-ds",
                "gpugen's manifest",
                (List<Map<String, Object>>) nodeTolerations(vars, "gpu_operator_rdma_tolerations"),
                Map.of(),
                List.of(),
                "rdma"));
      }
      if (eks) {
        Map<String, Object> coredns = (Map<String, Object>) kubernetesFacts.get("eksCoreDns");
        String eksTf = text("terraform/eks.tf");
        assertTrue(
            eksTf.contains("    nodeSelector = var.eks_controller_node_selector\n")
                && eksTf.contains("    tolerations  = var.eks_controller_tolerations\n")
                && eksTf.contains("jsonencode({ tolerations = var.eks_controller_tolerations })"),
            "eks.tf no longer gives CoreDNS the plan's node selector and tolerations: update"
                + " SchedulingTest");
        // eks.tf's configuration: eks_controller_tolerations alone, and the node selector
        // eks_controller_node_selector where it is set (both from terraform.tfvars.json).
        List<Map<String, Object>> tolerations = new ArrayList<>();
        for (JsonNode t : tfvars.path("eks_controller_tolerations")) {
          tolerations.add(
              Map.of(
                  "key", t.path("key").asText(),
                  "operator", t.path("operator").asText(),
                  "value", t.path("value").asText(),
                  "effect", t.path("effect").asText()));
        }
        workloads.add(
            new Workload(
                "Deployment",
                "coredns",
                "EKS add-on, eks.tf configuration_values",
                tolerations,
                tfvars.path("eks_controller_node_selector").isEmpty()
                    ? (Map<String, Object>) coredns.get("nodeSelector")
                    : JSON.convertValue(tfvars.path("eks_controller_node_selector"), Map.class),
                List.of(),
                "none"));
      }
      if (kubeadm) {
        Map<String, Object> coredns = (Map<String, Object>) kubernetesFacts.get("kubeadmCoreDns");
        workloads.add(
            new Workload(
                "Deployment",
                "coredns",
                "kubeadm's CoreDNS manifest",
                (List<Map<String, Object>>) coredns.get("tolerations"),
                (Map<String, Object>) coredns.get("nodeSelector"),
                List.of(),
                "none"));
        Map<String, Object> kubeadmDefaults = yaml("ansible/roles/kubeadm/defaults/main.yml");
        String cni = str(all.get("kubeadm_cni"));
        Map<String, Object> chart =
            (Map<String, Object>)
                ((Map<String, Object>) kubeadmDefaults.get("kubeadm_cni_charts")).get(cni);
        String name = str(chart.get("chart")).replaceFirst(".*/", "");
        Map<String, Object> f = facts(name + "-" + chart.get("version") + ".yaml");
        for (Map<String, Object> w : (List<Map<String, Object>>) f.get("workloads")) {
          workloads.add(
              new Workload(
                  str(w.get("kind")),
                  str(w.get("name")),
                  name + " " + chart.get("version"),
                  (List<Map<String, Object>>) w.get("tolerations"),
                  (Map<String, Object>) w.getOrDefault("nodeSelector", Map.of()),
                  List.of(),
                  str(w.getOrDefault("runsOn", "none"))));
        }
      }
    }

    /** The GPU Operator's workloads: the values play 03 or ArgoCD installs over the chart's. */
    @SuppressWarnings("unchecked")
    private void gpuOperator(Map<String, Object> vars) throws IOException {
      Map<String, Object> values;
      String version;
      if (tree.files().containsKey("argocd/apps/gpu-operator.yaml")) {
        Map<String, Object> app = yaml("argocd/apps/gpu-operator.yaml");
        Map<String, Object> source =
            (Map<String, Object>) ((Map<String, Object>) app.get("spec")).get("source");
        version = str(source.get("targetRevision"));
        values =
            (Map<String, Object>) ((Map<String, Object>) source.get("helm")).get("valuesObject");
      } else {
        version = str(vars.get("gpu_operator_version"));
        values = (Map<String, Object>) vars.get("gpu_operator_values");
      }
      values = deepCopy(values);
      for (String path : strip) {
        remove(values, path);
      }
      Map<String, Object> f = facts("gpu-operator-" + version + ".yaml");
      Map<String, Object> merged = coalesce((Map<String, Object>) f.get("defaults"), values);
      Map<String, String> gpuLabels = new TreeMap<>();
      ((Map<String, Object>) f.get("gpuNodeLabels")).forEach((k, v) -> gpuLabels.put(k, str(v)));
      nodes.stream().filter(n -> n.gpu).forEach(n -> n.labels.putAll(gpuLabels));
      String source = "gpu-operator " + version;
      for (Map<String, Object> w : (List<Map<String, Object>>) f.get("workloads")) {
        if (w.containsKey("enabled") && !Boolean.TRUE.equals(at(merged, str(w.get("enabled"))))) {
          continue;
        }
        List<Map<String, Object>> tolerations;
        Map<String, Object> nodeSelector;
        List<List<Map<String, Object>>> terms = List.of();
        if (Boolean.TRUE.equals(w.get("operand"))) {
          Object set = at(merged, "daemonsets.tolerations");
          tolerations =
              set instanceof List<?> l && !l.isEmpty()
                  ? (List<Map<String, Object>>) set
                  : (List<Map<String, Object>>) f.get("operandTolerations");
          nodeSelector = (Map<String, Object>) w.get("nodeSelector");
        } else {
          String at = str(w.get("scheduling"));
          tolerations =
              (List<Map<String, Object>>) orElse(at(merged, at + ".tolerations"), List.of());
          nodeSelector = (Map<String, Object>) orElse(at(merged, at + ".nodeSelector"), Map.of());
          Object required =
              at(
                  merged,
                  at
                      + ".affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                      + ".nodeSelectorTerms");
          if (required instanceof List<?> l) {
            List<List<Map<String, Object>>> t = new ArrayList<>();
            for (Object term : l) {
              t.add(
                  (List<Map<String, Object>>) ((Map<String, Object>) term).get("matchExpressions"));
            }
            terms = t;
          }
        }
        workloads.add(
            new Workload(
                str(w.get("kind")),
                str(w.get("name")),
                source,
                tolerations,
                nodeSelector,
                terms,
                str(w.getOrDefault("runsOn", "none"))));
      }
    }

    /** The EFA device plugin at the role's pinned chart version, with the rendered values. */
    @SuppressWarnings("unchecked")
    private void efaDevicePlugin(Map<String, Object> vars) throws IOException {
      String version = str(vars.get("gpu_operator_efa_chart_version"));
      Map<String, Object> f = facts("aws-efa-k8s-device-plugin-" + version + ".yaml");
      assertEquals(version, str(f.get("version")), "the facts' chart version is the render's pin");
      // The task installs it with values {tolerations: gpu_operator_efa_tolerations}.
      Map<String, Object> values = new LinkedHashMap<>();
      values.put("tolerations", nodeTolerations(vars, "gpu_operator_efa_tolerations"));
      Map<String, Object> merged = coalesce((Map<String, Object>) f.get("defaults"), values);
      Map<String, Object> w = ((List<Map<String, Object>>) f.get("workloads")).get(0);
      List<Map<String, Object>> tolerations =
          new ArrayList<>((List<Map<String, Object>>) w.get("tolerations"));
      tolerations.addAll((List<Map<String, Object>>) merged.get("tolerations"));
      Map<String, Object> instances = (Map<String, Object>) merged.get("supportedInstanceLabels");
      List<String> types = upstreamInstanceTypes(str(instances.get("valuesFile")), version);
      List<Object> keys = (List<Object>) instances.get("keys");
      List<List<Map<String, Object>>> terms = new ArrayList<>();
      for (Object key : keys) {
        List<Map<String, Object>> term = new ArrayList<>();
        term.add(Map.of("key", key, "operator", "In", "values", types));
        terms.add(term);
      }
      // The template writes the compute-type expression after its range: into the last term.
      terms
          .get(terms.size() - 1)
          .add(
              Map.of(
                  "key",
                  "eks.amazonaws.com/compute-type",
                  "operator",
                  "NotIn",
                  "values",
                  List.of("auto")));
      workloads.add(
          new Workload(
              "DaemonSet",
              str(w.get("name")),
              "aws-efa-k8s-device-plugin " + version,
              tolerations,
              (Map<String, Object>) orElse(merged.get("nodeSelector"), Map.of()),
              terms,
              "efa"));
    }

    /**
     * A device plugin's tolerations as the render gives them: the one node-level list, which the
     * role default names and group_vars sets, or a list of its own.
     */
    private static Object nodeTolerations(Map<String, Object> vars, String name) {
      Object v = vars.get(name);
      if ("{{ gpu_operator_node_tolerations }}".equals(v)) {
        return vars.getOrDefault("gpu_operator_node_tolerations", List.of());
      }
      assertTrue(v instanceof List<?>, name + " is neither a list nor the node-level list: " + v);
      return v;
    }

    private String text(String file) {
      RenderedTree.File f = tree.files().get(file);
      assertTrue(f != null, label + ": no " + file + " in the render");
      return new String(f.content(), StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> yaml(String file) {
      return (Map<String, Object>) ANSIBLE_YAML.loadFromString(text(file));
    }
  }

  /** Ansible's YAML: {@code !unsafe} marks a plain string. */
  private static final Load ANSIBLE_YAML =
      new Load(
          LoadSettings.builder()
              .setTagConstructors(
                  Map.of(
                      new Tag("!unsafe"),
                      (ConstructNode)
                          new ConstructNode() {
                            @Override
                            public Object construct(org.snakeyaml.engine.v2.nodes.Node node) {
                              return ((ScalarNode) node).getValue();
                            }
                          }))
              .build());

  @SuppressWarnings("unchecked")
  static Map<String, Object> facts(String file) throws IOException {
    Path p = FACTS.resolve(file);
    if (!Files.exists(p)) {
      fail(
          "no scheduling facts for "
              + file
              + ": copy the chart's scheduling defaults from upstream into "
              + p
              + " (with their source), as the other files there do");
    }
    return (Map<String, Object>)
        new Load(LoadSettings.builder().build()).loadFromString(Files.readString(p));
  }

  /**
   * A chart's instance-type list as copied once from upstream into src/test/resources/upstream/
   * (one name a line, {@code #} comments, one of which names the chart version it was copied at).
   */
  static List<String> upstreamInstanceTypes(String file, String version) throws IOException {
    Path p = UPSTREAM.resolve(file);
    assertTrue(Files.exists(p), "no upstream copy " + p);
    String text = Files.readString(p);
    assertTrue(
        text.contains("# Chart.yaml: version: " + version + "\n"),
        p + " is not the list of chart " + version);
    List<String> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        out.add(line.strip());
      }
    }
    assertFalse(out.isEmpty(), p::toString);
    return out;
  }

  /** Helm's merge of user values over a chart's: maps merge key by key, anything else replaces. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> coalesce(Map<String, Object> defaults, Map<String, Object> values) {
    Map<String, Object> out = new LinkedHashMap<>(defaults);
    values.forEach(
        (k, v) -> {
          if (v instanceof Map<?, ?> m && out.get(k) instanceof Map<?, ?> d) {
            out.put(k, coalesce((Map<String, Object>) d, (Map<String, Object>) m));
          } else {
            out.put(k, v);
          }
        });
    return out;
  }

  /** The value at a dotted path ("operator.tolerations"), or null. */
  static Object at(Map<String, Object> m, String path) {
    Object cur = m;
    for (String part : path.split("[.]")) {
      if (!(cur instanceof Map<?, ?> map)) {
        return null;
      }
      cur = map.get(part);
    }
    return cur;
  }

  @SuppressWarnings("unchecked")
  private static void remove(Map<String, Object> m, String path) {
    int dot = path.indexOf('.');
    if (dot < 0) {
      m.remove(path);
    } else if (m.get(path.substring(0, dot)) instanceof Map<?, ?> child) {
      remove((Map<String, Object>) child, path.substring(dot + 1));
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> deepCopy(Map<String, Object> m) {
    Map<String, Object> out = new LinkedHashMap<>();
    m.forEach(
        (k, v) -> out.put(k, v instanceof Map<?, ?> c ? deepCopy((Map<String, Object>) c) : v));
    return out;
  }

  private static Object orElse(Object v, Object dflt) {
    return v == null ? dflt : v;
  }

  private static String str(Object o) {
    return o == null ? "" : String.valueOf(o);
  }
}
