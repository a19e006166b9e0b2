package dev.gpugen.lint.rules.gcp;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** A GKE control plane gpugen creates must say who may reach its public endpoint. */
public final class GcpEndpointOpen extends Rule {
  public GcpEndpointOpen() {
    super(
        "gcp-endpoint-open",
        Severity.ERROR,
        "GKE control plane endpoint without authorized networks, or open to the internet",
        "A GKE cluster's public endpoint accepts API requests from anywhere unless master"
            + " authorized networks limit it (authentication still applies). gpugen creates the"
            + " cluster with private nodes and the authorized networks of"
            + " cloud.gke.authorizedNetworks, and refuses to leave the list empty or to let it"
            + " hold 0.0.0.0/0: list the CIDRs of your offices, VPN or CI (where Terraform,"
            + " gcloud and the plays run). The same rule as eks-public-endpoint-open on AWS. Sources:"
            + " https://cloud.google.com/kubernetes-engine/docs/how-to/authorized-networks ,"
            + " https://cloud.google.com/kubernetes-engine/docs/concepts/network-isolation");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    plan.spec()
        .cloud()
        .gke()
        .filter(g -> g.create() && !g.privateEndpoint())
        .ifPresent(g -> check(g, findings));
  }

  private static void check(ClusterSpec.Gke g, Findings findings) {
    if (g.authorizedNetworks().isEmpty()) {
      findings.report(
          SpecPath.of("cloud", "gke"),
          "the GKE control plane's public endpoint needs cloud.gke.authorizedNetworks: without"
              + " them anyone on the internet can reach the API server",
          "add authorizedNetworks: [203.0.113.0/24] (who may reach the API)");
    }
    for (int i = 0; i < g.authorizedNetworks().size(); i++) {
      if (g.authorizedNetworks().get(i).endsWith("/0")) {
        findings.report(
            SpecPath.of("cloud", "gke", "authorizedNetworks", i),
            "cloud.gke.authorizedNetworks "
                + g.authorizedNetworks().get(i)
                + " opens the GKE API endpoint to the whole internet",
            "list the CIDRs that need the API");
      }
    }
  }
}
