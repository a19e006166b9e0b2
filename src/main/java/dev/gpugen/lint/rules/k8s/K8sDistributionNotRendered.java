package dev.gpugen.lint.rules.k8s;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/**
 * The grammar allows up to seven kubeadm control-plane hosts; gpugen renders a control plane of
 * one. A highly available control plane needs a load-balanced endpoint in front of the API servers
 * and the others joining with --control-plane and the uploaded certificates; rendering one host and
 * silently ignoring the rest would leave a control plane the spec does not describe.
 */
public final class K8sDistributionNotRendered extends Rule {
  public K8sDistributionNotRendered() {
    super(
        "k8s-distribution-not-rendered",
        Severity.ERROR,
        "a kubernetes: setup whose control plane gpugen does not render yet",
        "For kubeadm, play 02b runs kubeadm init on one control-plane host and joins the GPU nodes"
            + " as workers. More than one control-plane host means a highly available control"
            + " plane: a load balancer for --control-plane-endpoint, and kubeadm join"
            + " --control-plane with the certificates kubeadm init --upload-certs shares; gpugen"
            + " does not render that yet. List one control-plane host, or build the HA control"
            + " plane yourself and use distribution: existing. Source:"
            + " https://kubernetes.io/docs/setup/production-environment/tools/kubeadm/high-availability/");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    plan.spec()
        .kubernetes()
        .filter(k -> k.kubeadm() && k.controlPlaneHosts().size() > 1)
        .ifPresent(
            k ->
                findings.report(
                    SpecPath.of("kubernetes", "controlPlane", "hosts"),
                    "kubeadm with "
                        + k.controlPlaneHosts().size()
                        + " control-plane hosts: gpugen renders a control plane of one host"
                        + " (no highly available control plane yet)",
                    "list one control-plane host, or build the HA control plane yourself and use"
                        + " distribution: existing"));
  }
}
