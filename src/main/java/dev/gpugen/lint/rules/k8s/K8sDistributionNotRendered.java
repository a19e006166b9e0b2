package dev.gpugen.lint.rules.k8s;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.Set;

/**
 * The grammar names every distribution; a distribution whose control plane gpugen does not render
 * yet is refused rather than accepted and silently ignored.
 */
public final class K8sDistributionNotRendered extends Rule {
  /** Distributions whose cluster gpugen creates or joins today. */
  private static final Set<String> RENDERED = Set.of("existing", "eks");

  public K8sDistributionNotRendered() {
    super(
        "k8s-distribution-not-rendered",
        Severity.ERROR,
        "kubernetes.distribution whose control plane gpugen does not render yet",
        "The spec grammar has eks, kubeadm and existing. For existing gpugen renders everything"
            + " the nodes need (plays 03 and 05 prove each host is a Ready node of the kubeconfig's"
            + " cluster and that the scheduler sees its GPUs); for eks the Terraform also creates"
            + " the EKS control plane and the nodes join it at boot. The kubeadm bootstrap role is"
            + " not rendered by this version: accepting it would render nodes that join no"
            + " cluster. Create the cluster with your own tooling (kubeadm) and use existing."
            + " Source:"
            + " https://kubernetes.io/docs/setup/production-environment/tools/kubeadm/create-cluster-kubeadm/");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    spec.kubernetes()
        .filter(k -> !RENDERED.contains(k.distribution()))
        .ifPresent(
            k ->
                findings.report(
                    SpecPath.of("kubernetes", "distribution"),
                    "gpugen does not render the "
                        + k.distribution()
                        + " control plane yet: the nodes would join no cluster",
                    "create the cluster yourself and use distribution: existing"));
  }
}
