package dev.gpugen.lint.rules.k8s;

import dev.gpugen.compat.KubernetesSupport;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** The GPU Operator is validated on a range of Kubernetes minors per release line. */
public final class K8sOperatorUnvalidated extends Rule {
  public K8sOperatorUnvalidated() {
    super(
        "k8s-operator-unvalidated",
        Severity.WARNING,
        "GPU Operator release not validated on the cluster's Kubernetes minor",
        "NVIDIA lists, per GPU Operator release, the Kubernetes minors it was validated on (for"
            + " example 1.29-1.33 for the 25.3 releases on Ubuntu). Outside that range the"
            + " operator's operands may use APIs the cluster no longer serves, or the cluster's"
            + " features (DRA, device-plugin changes) may be untested with it. Pick an operator"
            + " release that lists the minor, or the minor the release lists. Releases whose range"
            + " gpugen does not know get no finding. Sources: "
            + KubernetesSupport.OPERATOR_SOURCE);
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    spec.kubernetes()
        .ifPresent(
            k -> {
              String operator = spec.software().gpuOperator().version();
              KubernetesSupport.operatorRange(operator)
                  .filter(range -> !range.contains(k.version()))
                  .ifPresent(
                      range ->
                          findings.report(
                              SpecPath.of("kubernetes", "version"),
                              "GPU Operator "
                                  + operator
                                  + " is validated on Kubernetes "
                                  + range
                                  + ", not "
                                  + k.version(),
                              "use a Kubernetes minor in "
                                  + range
                                  + ", or a GPU Operator release"
                                  + " that lists "
                                  + k.version()));
            });
  }
}
