package dev.gpugen.plan;

import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where the workloads gpugen installs may run: the tolerations they need for the nodes the spec
 * creates, and the labels gpugen puts on those nodes. One definition for every chart and manifest
 * that must reach the GPU nodes (the GPU Operator's operands and its Node Feature Discovery worker,
 * the EFA device plugin, any further node-level device plugin), so none of them can miss a pool's
 * taint.
 */
public final class Scheduling {
  private Scheduling() {}

  /**
   * The taint kubeadm puts on every control-plane node (kubeadm's constants.ControlPlaneTaint,
   * kubernetes/kubernetes cmd/kubeadm/app/constants/constants.go; "Well-Known Labels, Annotations
   * and Taints", https://kubernetes.io/docs/reference/labels-annotations-taints/).
   */
  public static final ClusterSpec.Taint CONTROL_PLANE_TAINT =
      new ClusterSpec.Taint(
          "node-role.kubernetes.io/control-plane", Optional.empty(), "NoSchedule");

  /**
   * The label a kubelet sets itself only with a cloud provider (the well-known labels page: "This
   * will be set only if you are using a cloudprovider"), which AWS's charts select instance types
   * by (aws/eks-charts stable/aws-efa-k8s-device-plugin values.yaml, supportedInstanceLabels).
   */
  public static final String INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type";

  /** Effects that keep an untolerating pod off a node (PreferNoSchedule only discourages). */
  private static final Set<String> BLOCKING = Set.of("NoSchedule", "NoExecute");

  /**
   * What every node-level DaemonSet must tolerate to run on every GPU node: one toleration per
   * distinct taint of the pools, in spec order, then play 05's verdict taint where play 05 sets it.
   */
  static List<Toleration> gpuNodeTolerations(ClusterSpec spec, boolean validationTaint) {
    Set<Toleration> out = new LinkedHashSet<>();
    for (ClusterSpec.Pool p : spec.pools()) {
      for (ClusterSpec.Taint t : p.taints()) {
        if (BLOCKING.contains(t.effect())) {
          out.add(Toleration.of(t));
        }
      }
    }
    if (validationTaint) {
      out.add(VALIDATION);
    }
    return List.copyOf(out);
  }

  /**
   * Play 05's verdict taint, pending or failed ({@link ValidationState}): a node's own agents (the
   * device plugins, the exporter, the validator, NFD's worker) must keep running there, or a gated
   * node would never advertise its GPUs and pass, and a failed one would lose its exporter.
   */
  static final Toleration VALIDATION = ValidationState.toleration();

  /**
   * Where the cluster's controllers (the GPU Operator, NFD's master and garbage collector) can run
   * without a toleration gpugen adds.
   */
  public enum ControllerHome {
    /** EKS with the system pool: its untainted nodes. */
    SYSTEM_POOL,
    /** A GPU pool without a blocking taint. */
    UNTAINTED_POOL,
    /** kubeadm, every GPU pool tainted: the control-plane nodes, whose taint they are given. */
    CONTROL_PLANE,
    /** Nowhere but the tainted GPU nodes: the controllers tolerate the pools' taints. */
    GPU_NODES
  }

  static ControllerHome controllerHome(ClusterSpec spec, boolean kubeadm) {
    if (systemPool(spec).isPresent()) {
      return ControllerHome.SYSTEM_POOL;
    }
    if (!everyGpuPoolTainted(spec)) {
      return ControllerHome.UNTAINTED_POOL;
    }
    return kubeadm ? ControllerHome.CONTROL_PLANE : ControllerHome.GPU_NODES;
  }

  /** Whether every GPU pool has a taint that keeps pods without its toleration off its nodes. */
  public static boolean everyGpuPoolTainted(ClusterSpec spec) {
    return spec.pools().stream()
        .allMatch(p -> p.taints().stream().anyMatch(t -> BLOCKING.contains(t.effect())));
  }

  /**
   * The system pool: on EKS on AWS where the spec turns it on, or by default where every GPU pool
   * is tainted (gpugen knows no other node there; kubeadm has its control plane, an existing
   * cluster its own nodes).
   */
  static Optional<SystemPool> systemPool(ClusterSpec spec) {
    Optional<ClusterSpec.Kubernetes> k = spec.kubernetes().filter(ClusterSpec.Kubernetes::eks);
    if (spec.cloud().provider() != Provider.AWS || k.isEmpty()) {
      return Optional.empty();
    }
    ClusterSpec.SystemPool sp = spec.systemPool();
    if (!sp.enabled()) {
      return Optional.empty();
    }
    return Optional.of(
        new SystemPool(
            SystemPool.NAME,
            sp.instanceType().orElseThrow(),
            sp.count(),
            sp.diskSizeGb(),
            java.util.Map.of(SystemPool.ROLE_LABEL, "system")));
  }

  /**
   * The tolerations the cluster's Deployments (the GPU Operator, NFD's master and garbage
   * collector) need beyond their charts' own: kubeadm's control-plane taint where the control plane
   * is the only untainted home, the GPU pools' taints where every GPU pool is tainted and gpugen
   * knows no other node, else none.
   */
  /** The label gpugen registers every node it launches with: its pool's name. */
  public static final String POOL_LABEL = "gpugen-pool";

  /**
   * Where the cluster's controllers must run: the system pool's nodes when gpugen adds it (they
   * then tolerate no GPU taint, so none lands on a GPU node that turned Ready first); anywhere they
   * tolerate otherwise.
   */
  static SortedMap<String, String> controllerNodeSelector(ClusterSpec spec, boolean kubeadm) {
    SortedMap<String, String> out = new TreeMap<>();
    if (controllerHome(spec, kubeadm) == ControllerHome.SYSTEM_POOL) {
      out.put(POOL_LABEL, SystemPool.NAME);
    }
    return out;
  }

  static List<Toleration> controllerTolerations(
      ClusterSpec spec, boolean kubeadm, boolean validationTaint) {
    List<Toleration> out =
        new java.util.ArrayList<>(
            switch (controllerHome(spec, kubeadm)) {
              case CONTROL_PLANE -> List.of(Toleration.of(CONTROL_PLANE_TAINT));
              case SYSTEM_POOL, UNTAINTED_POOL -> List.<Toleration>of();
              case GPU_NODES -> gpuNodeTolerations(spec, false);
            });
    // Every GPU node may carry play 05's verdict taint at once (a gated pool's first run); the
    // system pool's nodes never do.
    if (validationTaint && controllerHome(spec, kubeadm) != ControllerHome.SYSTEM_POOL) {
      out.add(VALIDATION);
    }
    return List.copyOf(out);
  }

  /**
   * The labels gpugen puts on pool {@code p}'s nodes: the spec's, and the instance type on EC2
   * nodes whose kubelet runs without a cloud provider (kubeadm; an existing cluster may run none),
   * so that charts selecting by it (the EFA device plugin) find them. EKS's cloud controller sets
   * it itself.
   */
  static SortedMap<String, String> nodeLabels(ClusterSpec spec, ClusterSpec.Pool p) {
    SortedMap<String, String> out = new TreeMap<>(p.labels());
    boolean noCloudProvider =
        spec.kubernetes().filter(k -> k.kubeadm() || k.existing()).isPresent();
    if (spec.cloud().provider() == Provider.AWS && noCloudProvider && !p.instanceType().isEmpty()) {
      out.put(INSTANCE_TYPE_LABEL, p.instanceType());
    }
    return out;
  }

  /**
   * Labels kubelet may give its own node in the kubernetes.io and k8s.io namespaces (kubelet
   * reference, v1.33, --node-labels; kubernetes/kubernetes cmd/kubelet/app/options/options.go
   * ValidateKubeletFlags): kubelet exits at start with any other label there.
   */
  private static final Set<String> KUBELET_ALLOWED =
      Set.of(
          "beta.kubernetes.io/arch",
          "beta.kubernetes.io/instance-type",
          "beta.kubernetes.io/os",
          "failure-domain.beta.kubernetes.io/region",
          "failure-domain.beta.kubernetes.io/zone",
          "kubernetes.io/arch",
          "kubernetes.io/hostname",
          "kubernetes.io/os",
          "node.kubernetes.io/instance-type",
          "topology.kubernetes.io/region",
          "topology.kubernetes.io/zone");

  /** Prefixes whose every label kubelet may give its own node. */
  private static final List<String> KUBELET_ALLOWED_PREFIXES =
      List.of("kubelet.kubernetes.io/", "node.kubernetes.io/");

  /** Whether kubelet may register its node with label {@code key} (--node-labels). */
  public static boolean kubeletMaySet(String key) {
    int slash = key.indexOf('/');
    if (slash < 0) {
      return true;
    }
    String prefix = key.substring(0, slash);
    boolean reserved =
        prefix.equals("kubernetes.io")
            || prefix.endsWith(".kubernetes.io")
            || prefix.equals("k8s.io")
            || prefix.endsWith(".k8s.io");
    return !reserved
        || KUBELET_ALLOWED.contains(key)
        || KUBELET_ALLOWED_PREFIXES.stream().anyMatch(key::startsWith);
  }

  /**
   * Of {@code labels}, the ones kubelet may register its node with; the others (a
   * node-role.kubernetes.io/ label, say) only an API client may set.
   */
  public static SortedMap<String, String> kubeletLabels(SortedMap<String, String> labels) {
    SortedMap<String, String> out = new TreeMap<>();
    labels.forEach(
        (k, v) -> {
          if (kubeletMaySet(k)) {
            out.put(k, v);
          }
        });
    return out;
  }
}
