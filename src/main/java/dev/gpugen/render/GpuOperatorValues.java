package dev.gpugen.render;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.plan.Toleration;
import dev.gpugen.spec.ClusterSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The NVIDIA GPU Operator chart values, computed once from the spec. Play 03 (through {@code
 * gpu_operator_values} in group_vars), the ArgoCD Application ({@code valuesObject}) and the GKE
 * {@code helm_release} all render this one tree, so the three can never disagree.
 */
public final class GpuOperatorValues {
  /** The device plugin's time-slicing ConfigMap, in the operator's namespace. */
  public static final String TIME_SLICING_CONFIG = "time-slicing-config";

  /** The namespace the operator (and its time-slicing ConfigMap) run in. */
  public static final String NAMESPACE = "gpu-operator";

  /**
   * The dcgm-exporter setting that connects it to a running host engine instead of starting one
   * embedded in its process ({@code --remote-hostengine-info}; NVIDIA's dcgm-exporter command
   * reference,
   * https://docs.nvidia.com/datacenter/dcgm/latest/reference/command-line-reference/dcgm-exporter.html).
   */
  public static final String REMOTE_HOSTENGINE_ENV = "DCGM_REMOTE_HOSTENGINE_INFO";

  /**
   * Where the host's nvidia-dcgm service listens: nv-hostengine binds 127.0.0.1:5555 by default.
   * With {@code dcgm.enabled: false} and an exporter address starting with {@code localhost}, the
   * GPU Operator runs the exporter in the host's network namespace ("case for DCGM running on the
   * host itself", TransformDCGMExporter in NVIDIA/gpu-operator controllers/object_controls.go), so
   * the address reaches the host's engine. NVIDIA runs one host engine per node: "Starting another
   * engine creates a separate inventory and cache" (DCGM, Getting Started for System
   * Administrators,
   * https://docs.nvidia.com/datacenter/dcgm/latest/learn/getting-started-for-system-administrators/index.html).
   */
  public static final String HOST_ENGINE = "localhost:5555";

  private GpuOperatorValues() {}

  /**
   * The values for the spec's provider: on GKE with {@code gpuDriver: operator} the operator
   * installs the driver and toolkit; everywhere else plays 01 and 02 installed them on the host.
   */
  public static Map<String, Object> of(ClusterPlan plan) {
    Map<String, Object> values = plan.gke() ? gke(plan) : hostInstalled(plan);
    scheduling(plan, values);
    return sortedMap(values);
  }

  // The chart's own tolerations, which a list in the values replaces rather than extends (Helm
  // merges maps, not lists), so they are kept beside gpugen's. NVIDIA/gpu-operator
  // deployments/gpu-operator/values.yaml, v25.3.0 and v25.10.1: operator.tolerations,
  // node-feature-discovery.worker.tolerations, daemonsets.tolerations; the NFD subchart's
  // master.tolerations (0.17.2: master and control-plane; 0.18.2: control-plane) and gc (none).
  private static final Toleration MASTER =
      new Toleration("node-role.kubernetes.io/master", "Equal", "", "NoSchedule");
  private static final Toleration CONTROL_PLANE =
      new Toleration("node-role.kubernetes.io/control-plane", "Equal", "", "NoSchedule");
  private static final Toleration GPU =
      new Toleration("nvidia.com/gpu", "Exists", "", "NoSchedule");

  static final List<Toleration> OPERATOR_TOLERATIONS = List.of(MASTER, CONTROL_PLANE);
  static final List<Toleration> NFD_MASTER_TOLERATIONS = List.of(MASTER, CONTROL_PLANE);
  static final List<Toleration> NFD_GC_TOLERATIONS = List.of();
  static final List<Toleration> NFD_WORKER_TOLERATIONS = List.of(MASTER, CONTROL_PLANE, GPU);

  /**
   * The operands' tolerations: the ClusterPolicy's daemonsets.tolerations replace each operand
   * DaemonSet's own (NVIDIA/gpu-operator controllers/object_controls.go,
   * applyCommonDaemonsetConfig), whose default is nvidia.com/gpu (each operand asset, e.g.
   * assets/state-device-plugin/0500_daemonset.yaml).
   */
  static final List<Toleration> OPERAND_TOLERATIONS = List.of(GPU);

  /**
   * Tolerations for the nodes the spec creates: every node-level DaemonSet (the operands, NFD's
   * worker) tolerates every GPU pool's taint, and the controllers (the operator, NFD's master and
   * garbage collector) what the plan says they need to have a node. A list is written only where
   * the chart's own does not already tolerate it.
   */
  private static void scheduling(ClusterPlan plan, Map<String, Object> values) {
    List<Toleration> nodes = plan.gpuNodeTolerations();
    List<Toleration> controllers = plan.controllerTolerations();
    withTolerations(values, "daemonsets", OPERAND_TOLERATIONS, nodes);
    withTolerations(values, "operator", OPERATOR_TOLERATIONS, controllers);
    Map<String, Object> nfd = new TreeMap<>();
    withTolerations(nfd, "master", NFD_MASTER_TOLERATIONS, controllers);
    withTolerations(nfd, "gc", NFD_GC_TOLERATIONS, controllers);
    withTolerations(nfd, "worker", NFD_WORKER_TOLERATIONS, nodes);
    if (!nfd.isEmpty()) {
      values.put("node-feature-discovery", nfd);
    }
  }

  /**
   * Sets {@code values[key].tolerations} to the chart's list plus what it lacks of {@code needed},
   * unless the chart's list already tolerates all of it.
   */
  @SuppressWarnings("unchecked")
  private static void withTolerations(
      Map<String, Object> values, String key, List<Toleration> chart, List<Toleration> needed) {
    List<Toleration> list = tolerations(chart, needed);
    if (list.equals(chart)) {
      return;
    }
    Map<String, Object> section =
        new TreeMap<>((Map<String, Object>) values.getOrDefault(key, Map.of()));
    section.put("tolerations", list.stream().map(Toleration::toMap).toList());
    values.put(key, section);
  }

  /** {@code chart} followed by each toleration of {@code needed} none of {@code chart} covers. */
  public static List<Toleration> tolerations(List<Toleration> chart, List<Toleration> needed) {
    List<Toleration> out = new ArrayList<>(chart);
    for (Toleration t : needed) {
      ClusterSpec.Taint taint =
          new ClusterSpec.Taint(
              t.key(),
              t.operator().equals("Equal") ? Optional.of(t.value()) : Optional.empty(),
              t.effect());
      if (out.stream().noneMatch(c -> c.tolerates(taint))) {
        out.add(t);
      }
    }
    return List.copyOf(out);
  }

  /**
   * On GKE with the operator's device plugin: the pools that share their GPUs, with their replicas.
   * Each gets an entry in the time-slicing ConfigMap (gke-gpu-operator.tf), picked by a node label.
   * Where GKE runs its own device plugin, its gpu_sharing_config does this instead.
   */
  public static Map<String, Integer> gkeTimeSlicing(ClusterPlan plan) {
    Map<String, Integer> slicing = new TreeMap<>();
    for (PoolPlan p : plan.pools()) {
      if (plan.gkeOperatorDriver() && p.timeSlicingReplicas() > 1) {
        slicing.put(p.name(), p.timeSlicingReplicas());
      }
    }
    return slicing;
  }

  /**
   * The key of the device plugin's config every node without the per-node label uses ({@code
   * devicePlugin.config.default}).
   */
  public static final String DEFAULT_CONFIG = "any";

  /**
   * The node label that picks a node's entry of the device plugin's ConfigMap (GPU Operator,
   * "Time-Slicing GPUs in Kubernetes": per-node configuration).
   */
  public static final String CONFIG_LABEL = "nvidia.com/device-plugin.config";

  /**
   * Whether the device plugin shares the GPUs of some pool between pods (AWS and static: needs the
   * time-slicing ConfigMap).
   */
  public static boolean timeSlicing(ClusterPlan plan) {
    return !plan.gke() && plan.pools().stream().anyMatch(p -> p.timeSlicingReplicas() > 1);
  }

  /**
   * The device plugin's configs by ConfigMap key (AWS and static), empty when no pool time-slices:
   * {@value #DEFAULT_CONFIG} holds the cluster-wide setting (time-slicing or none), and every pool
   * whose replicas differ from it gets an entry under its name, which its nodes select with the
   * {@value #CONFIG_LABEL} label.
   */
  public static Map<String, String> devicePluginConfigs(ClusterPlan plan) {
    Map<String, String> configs = new TreeMap<>();
    devicePluginReplicas(plan).forEach((k, r) -> configs.put(k, devicePluginConfig(r)));
    return configs;
  }

  /**
   * The replicas of each entry of {@link #devicePluginConfigs}, by ConfigMap key: what play 03's
   * template turns into the same config files.
   */
  public static Map<String, Integer> devicePluginReplicas(ClusterPlan plan) {
    Map<String, Integer> replicas = new TreeMap<>();
    if (!timeSlicing(plan)) {
      return replicas;
    }
    replicas.put(DEFAULT_CONFIG, clusterReplicas(plan));
    for (PoolPlan p : plan.pools()) {
      poolConfigKey(plan, p).ifPresent(k -> replicas.put(k, p.timeSlicingReplicas()));
    }
    return replicas;
  }

  /**
   * The ConfigMap key pool {@code p}'s nodes are labelled with, where its replicas differ from the
   * cluster-wide ones (AWS and static); empty for pools that use the default entry.
   */
  public static Optional<String> poolConfigKey(ClusterPlan plan, PoolPlan p) {
    return timeSlicing(plan) && p.timeSlicingReplicas() != clusterReplicas(plan)
        ? Optional.of(p.name())
        : Optional.empty();
  }

  private static int clusterReplicas(ClusterPlan plan) {
    return Math.max(1, plan.spec().software().devicePlugin().timeSlicingReplicas());
  }

  /** The device plugin's config for {@code replicas}: time-slicing above 1, else whole GPUs. */
  static String devicePluginConfig(int replicas) {
    return replicas > 1 ? timeSlicingConfig(replicas) : "version: v1\nflags:\n  migStrategy: none";
  }

  /**
   * The device plugin's config file (NVIDIA k8s-device-plugin schema v1) held by the ConfigMap
   * under the key {@code any}: every GPU advertised {@code replicas} times. No final newline, as
   * the role's {@code |-} block writes it.
   */
  public static String timeSlicingConfig(int replicas) {
    return "version: v1\n"
        + "flags:\n"
        + "  migStrategy: none\n"
        + "sharing:\n"
        + "  timeSlicing:\n"
        + "    renameByDefault: false\n"
        + "    failRequestsGreaterThanOne: true\n"
        + "    resources:\n"
        + "      - name: nvidia.com/gpu\n"
        + "        replicas: "
        + replicas;
  }

  // Driver and toolkit on the host (plays 01 and 02): the operator must not install them again.
  private static Map<String, Object> hostInstalled(ClusterPlan plan) {
    ClusterSpec.Software sw = plan.spec().software();
    Map<String, Object> v = new TreeMap<>();
    v.put("driver", Map.of("enabled", false));
    v.put("toolkit", Map.of("enabled", false));
    v.put("operator", Map.of("defaultRuntime", "containerd"));
    v.put("nfd", Map.of("enabled", true));
    v.put("gfd", Map.of("enabled", true));
    // One DCGM host engine per node: the host's nvidia-dcgm service that play 01 installs. No
    // standalone engine pod (dcgm.enabled), and the exporter connects to the host's engine instead
    // of starting one embedded in its process. See HOST_ENGINE.
    v.put("dcgm", Map.of("enabled", false));
    Map<String, Object> exporter = new TreeMap<>();
    exporter.put("enabled", sw.gpuOperator().dcgmExporter());
    if (sw.gpuOperator().dcgmExporter()) {
      exporter.put("env", List.of(Map.of("name", REMOTE_HOSTENGINE_ENV, "value", HOST_ENGINE)));
    }
    v.put("dcgmExporter", exporter);
    v.put("migManager", Map.of("enabled", sw.gpuOperator().migManager()));
    Map<String, Object> devicePlugin = new TreeMap<>();
    devicePlugin.put("enabled", true);
    if (timeSlicing(plan)) {
      devicePlugin.put("config", Map.of("name", TIME_SLICING_CONFIG, "default", DEFAULT_CONFIG));
    }
    v.put("devicePlugin", devicePlugin);
    return v;
  }

  // GKE (Ubuntu nodes, operator-installed driver).
  private static Map<String, Object> gke(ClusterPlan plan) {
    ClusterSpec.Software sw = plan.spec().software();
    Map<String, Object> values = new TreeMap<>();
    Map<String, Object> driver = new TreeMap<>();
    driver.put("enabled", true);
    driver.put("version", sw.driver());
    driver.put("kernelModuleType", sw.kernelModules().spelling());
    values.put("driver", driver);
    Map<String, Object> toolkit = new TreeMap<>();
    toolkit.put("enabled", true);
    // GKE 1.33+ known issue: the toolkit must read the containerd config from its file.
    toolkit.put("env", List.of(Map.of("name", "RUNTIME_CONFIG_SOURCE", "value", "file")));
    values.put("toolkit", toolkit);
    // One DCGM host engine per node: the operator's standalone engine (DaemonSet and Service
    // nvidia-dcgm, port 5555, internalTrafficPolicy Local). The operator points its exporter at it
    // (DCGM_REMOTE_HOSTENGINE_INFO), and play 05's validation Job runs dcgmi diag against it
    // instead of starting an engine of its own. Nothing else runs one on these nodes: GKE's
    // managed DCGM is off unless its monitoring component DCGM is enabled, which gpugen does not.
    values.put("dcgm", Map.of("enabled", true));
    values.put("dcgmExporter", Map.of("enabled", sw.gpuOperator().dcgmExporter()));
    values.put("migManager", Map.of("enabled", sw.gpuOperator().migManager()));
    if (!gkeTimeSlicing(plan).isEmpty()) {
      values.put("devicePlugin", Map.of("config", Map.of("name", TIME_SLICING_CONFIG)));
    }
    return values;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> sortedMap(Map<String, Object> m) {
    return (Map<String, Object>) sorted(m);
  }

  // Deterministic output: every map sorted by key, also inside lists (Map.of has no order).
  @SuppressWarnings("unchecked")
  private static Object sorted(Object v) {
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new TreeMap<>();
      ((Map<String, Object>) m).forEach((k, x) -> out.put(k, sorted(x)));
      return out;
    }
    if (v instanceof List<?> l) {
      return l.stream().map(GpuOperatorValues::sorted).toList();
    }
    return v;
  }
}
