package dev.gpugen.lint.rules.k8s;

import dev.gpugen.compat.KubernetesSupport;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.List;

/** EKS creates only the minors it supports; pkgs.k8s.io serves kubeadm for maintained minors. */
public final class K8sVersionUnsupported extends Rule {
  public K8sVersionUnsupported() {
    super(
        "k8s-version-unsupported",
        Severity.ERROR,
        "kubernetes.version the distribution does not offer",
        "Amazon EKS creates clusters only at the minors it supports (standard support for 14"
            + " months after release on EKS, then 12 months of extended support); CreateCluster"
            + " refuses others. kubeadm installs kubelet, kubeadm and kubectl from the Kubernetes"
            + " project's repository for one minor (pkgs.k8s.io/core:/stable:/v1.NN/deb/), and the"
            + " project maintains the last three minors. existing is whatever the cluster runs."
            + " Sources: "
            + KubernetesSupport.EKS_SOURCE
            + " , "
            + KubernetesSupport.KUBEADM_SOURCE);
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    spec.kubernetes()
        .ifPresent(
            k -> {
              List<String> minors = KubernetesSupport.minors(k.distribution());
              if (!minors.isEmpty() && !minors.contains(k.version())) {
                findings.report(
                    SpecPath.of("kubernetes", "version"),
                    "Kubernetes "
                        + k.version()
                        + " is not a minor "
                        + k.distribution()
                        + " offers ("
                        + String.join(", ", minors)
                        + "; "
                        + KubernetesSupport.source(k.distribution()).split(" ")[0]
                        + ")",
                    "use one of " + String.join(", ", minors));
              }
            });
  }
}
