package dev.gpugen.lint.rules.k8s;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/**
 * kubeadm's stacked etcd runs one member per control-plane host; etcd needs a majority of its
 * members, so an even count tolerates no more failures than the odd count below it, and two members
 * stop on either failure (worse than one).
 */
public final class K8sControlPlaneEven extends Rule {
  public K8sControlPlaneEven() {
    super(
        "k8s-control-plane-even",
        Severity.ERROR,
        "an even number of kubeadm control-plane hosts (stacked etcd loses quorum no later)",
        "Every kubeadm control-plane host runs a member of the stacked etcd, which works while a"
            + " majority of its members does. Four members tolerate one failure, as three do; two"
            + " members stop when either fails, which is worse than one. Use an odd number: 1, 3"
            + " or 5. Sources:"
            + " https://kubernetes.io/docs/setup/production-environment/tools/kubeadm/high-availability/"
            + " (\"an odd number of control plane nodes\"),"
            + " https://etcd.io/docs/latest/op-guide/runtime-configuration/ ,"
            + " https://etcd.io/docs/latest/faq/");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    boolean aws = plan.spec().cloud().provider() == Provider.AWS;
    plan.spec()
        .kubernetes()
        .filter(ClusterSpec.Kubernetes::kubeadm)
        .ifPresent(
            k -> {
              int members = aws ? k.controlPlaneCount() : k.controlPlaneHosts().size();
              if (members > 0 && members % 2 == 0) {
                findings.report(
                    SpecPath.of("kubernetes", "controlPlane", aws ? "count" : "hosts"),
                    members
                        + " kubeadm control-plane "
                        + (aws ? "instances" : "hosts")
                        + ": an even number of etcd members tolerates no more failures than one"
                        + " fewer",
                    aws
                        ? "set controlPlane.count to 1 or 3"
                        : "list an odd number of control-plane hosts (1, 3 or 5)");
              }
            });
  }
}
