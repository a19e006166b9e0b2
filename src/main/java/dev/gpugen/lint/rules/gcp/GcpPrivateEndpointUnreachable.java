package dev.gpugen.lint.rules.gcp;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/**
 * A private-only endpoint on a cluster gpugen creates: the control plane's only address is inside
 * the VPC the same run creates, which the machine running Terraform and the plays is not in.
 */
public final class GcpPrivateEndpointUnreachable extends Rule {
  public GcpPrivateEndpointUnreachable() {
    super(
        "gcp-private-endpoint-unreachable",
        Severity.ERROR,
        "privateEndpoint: true on a GKE cluster gpugen creates: nothing gpugen runs can reach it",
        "With cloud.gke.privateEndpoint: true the control plane has only its private IP address,"
            + " inside the VPC. gpugen creates that VPC in the same run, so the machine running"
            + " it is outside: the in-cluster Terraform (its kubernetes and helm providers talk"
            + " to https://ENDPOINT, in-cluster/gke-providers.tf) and gcloud container clusters"
            + " get-credentials (whose kubeconfig plays 03-05 use) cannot connect, and the apply"
            + " fails half-way. gpugen does not render GKE's DNS-based endpoint. Keep the public"
            + " endpoint limited to cloud.gke.authorizedNetworks (the default), or create the"
            + " cluster yourself in a network you reach and use it with cloud.gke.create: false."
            + " Sources: https://cloud.google.com/kubernetes-engine/docs/concepts/network-isolation"
            + " , https://cloud.google.com/sdk/gcloud/reference/container/clusters/get-credentials");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    plan.spec()
        .cloud()
        .gke()
        .filter(g -> g.create() && g.privateEndpoint())
        .ifPresent(
            g ->
                findings.report(
                    SpecPath.of("cloud", "gke", "privateEndpoint"),
                    "privateEndpoint: true leaves the control plane only an address inside the"
                        + " VPC this run creates, which the in-cluster Terraform and gcloud"
                        + " get-credentials cannot reach from outside it",
                    "remove privateEndpoint and list who may reach the API in authorizedNetworks,"
                        + " or use a cluster in a network you reach (create: false)"));
  }
}
