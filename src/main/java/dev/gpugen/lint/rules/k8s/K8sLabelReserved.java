package dev.gpugen.lint.rules.k8s;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.Scheduling;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.List;

/**
 * On EKS a pool's labels reach the node through kubelet's {@code --node-labels}; kubelet refuses to
 * start with a label in the kubernetes.io or k8s.io namespaces outside the set it may give itself
 * (NodeRestriction), so the node never registers. The allowed set: the kubelet reference,
 * https://kubernetes.io/docs/reference/command-line-tools-reference/kubelet/ ({@code
 * --node-labels}), and kubernetes/enhancements keps/sig-auth/279-limit-node-access. On kubeadm
 * gpugen leaves such a label out of --node-labels and play 03 sets it through the API instead, so
 * only EKS, whose nodes get no such play, refuses it.
 */
public final class K8sLabelReserved extends Rule {
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

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    if (plan.spec().kubernetes().filter(ClusterSpec.Kubernetes::eks).isEmpty()) {
      return;
    }
    List<ClusterSpec.Pool> pools = plan.spec().pools();
    for (int i = 0; i < pools.size(); i++) {
      for (String key : pools.get(i).labels().keySet()) {
        if (!Scheduling.kubeletMaySet(key)) {
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
