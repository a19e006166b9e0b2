package dev.gpugen.lint.rules.k8s;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.List;
import java.util.Set;

/**
 * On EKS a pool's labels reach the node through kubelet's {@code --node-labels}; kubelet refuses to
 * start with a label in the kubernetes.io or k8s.io namespaces outside the set it may give itself
 * (NodeRestriction), so the node never registers. The allowed set: the kubelet reference,
 * https://kubernetes.io/docs/reference/command-line-tools-reference/kubelet/ ({@code
 * --node-labels}), and kubernetes/enhancements keps/sig-auth/279-limit-node-access.
 */
public final class K8sLabelReserved extends Rule {
  /** Labels kubelet may set itself in the reserved namespaces (kubelet reference, v1.33). */
  private static final Set<String> ALLOWED =
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

  /** Prefixes whose every label kubelet may set itself. */
  private static final List<String> ALLOWED_PREFIXES =
      List.of("kubelet.kubernetes.io/", "node.kubernetes.io/");

  public K8sLabelReserved() {
    super(
        "k8s-label-reserved",
        Severity.ERROR,
        "an EKS pool label in the kubernetes.io or k8s.io namespace kubelet may not set",
        "On EKS gpugen registers each node with its pool's labels through kubelet's"
            + " --node-labels. Kubelet refuses to start when one of them is in the kubernetes.io or"
            + " k8s.io namespace (node-role.kubernetes.io/gpu, for one) unless it begins with"
            + " kubelet.kubernetes.io/ or node.kubernetes.io/ or is one of the labels kubelet sets"
            + " itself (kubernetes.io/arch, topology.kubernetes.io/zone, ...): the node never"
            + " registers. Use a label of your own domain (example.com/role: gpu), or one under"
            + " node.kubernetes.io/. Sources:"
            + " https://kubernetes.io/docs/reference/command-line-tools-reference/kubelet/"
            + " (--node-labels) ,"
            + " https://github.com/kubernetes/enhancements/tree/master/keps/sig-auth/279-limit-node-access");
  }

  /** Whether kubelet refuses to register itself with label {@code key}. */
  static boolean refused(String key) {
    int slash = key.indexOf('/');
    if (slash < 0) {
      return false;
    }
    String prefix = key.substring(0, slash);
    boolean reserved =
        prefix.equals("kubernetes.io")
            || prefix.endsWith(".kubernetes.io")
            || prefix.equals("k8s.io")
            || prefix.endsWith(".k8s.io");
    return reserved
        && !ALLOWED.contains(key)
        && ALLOWED_PREFIXES.stream().noneMatch(key::startsWith);
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    if (plan.spec().kubernetes().filter(ClusterSpec.Kubernetes::eks).isEmpty()) {
      return;
    }
    List<ClusterSpec.Pool> pools = plan.spec().pools();
    for (int i = 0; i < pools.size(); i++) {
      for (String key : pools.get(i).labels().keySet()) {
        if (refused(key)) {
          findings.report(
              SpecPath.of("pools", i, "labels").key(key),
              "pools["
                  + pools.get(i).name()
                  + "].labels has "
                  + key
                  + ", which kubelet may not give itself: it refuses to start with it in"
                  + " --node-labels and the node never joins the EKS cluster",
              "use a label of your own domain (example.com/"
                  + key.substring(key.indexOf('/') + 1)
                  + "), or one under node.kubernetes.io/");
        }
      }
    }
  }
}
