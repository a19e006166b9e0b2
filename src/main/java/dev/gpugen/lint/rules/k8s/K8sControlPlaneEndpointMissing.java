package dev.gpugen.lint.rules.k8s;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/**
 * Several kubeadm control-plane hosts need one address in front of all their API servers: kubeadm
 * init's --control-plane-endpoint. gpugen cannot pick it on static hosts (the first host's address
 * would make that host a single point of failure), and kubeadm cannot add it later.
 */
public final class K8sControlPlaneEndpointMissing extends Rule {
  public K8sControlPlaneEndpointMissing() {
    super(
        "k8s-control-plane-endpoint-missing",
        Severity.ERROR,
        "several kubeadm control-plane hosts without kubernetes.controlPlane.endpoint",
        "A highly available kubeadm control plane is reached through one stable address, a load"
            + " balancer or a DNS name in front of every API server, given to kubeadm init as"
            + " --control-plane-endpoint; nodes and the kubeconfig use it, and the API server"
            + " certificate is made for it. A control plane made without it cannot be turned into"
            + " a highly available one later. On static hosts you provide it: set"
            + " kubernetes.controlPlane.endpoint to HOST:PORT (the load balancer forwards TCP to"
            + " port 6443 of every control-plane host). Source:"
            + " https://kubernetes.io/docs/setup/production-environment/tools/kubeadm/high-availability/");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    plan.spec()
        .kubernetes()
        .filter(
            k ->
                k.kubeadm()
                    && k.controlPlaneHosts().size() > 1
                    && k.controlPlaneEndpoint().isEmpty())
        .ifPresent(
            k ->
                findings.report(
                    SpecPath.of("kubernetes", "controlPlane", "hosts"),
                    "kubeadm with "
                        + k.controlPlaneHosts().size()
                        + " control-plane hosts needs kubernetes.controlPlane.endpoint, the load"
                        + " balancer or DNS name in front of their API servers",
                    "add controlPlane.endpoint, e.g. endpoint: \"k8s-api.corp.example:6443\""));
  }
}
