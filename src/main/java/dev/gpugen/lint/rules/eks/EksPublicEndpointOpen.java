package dev.gpugen.lint.rules.eks;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** A public EKS endpoint must say who may reach it: EKS's own default is 0.0.0.0/0. */
public final class EksPublicEndpointOpen extends Rule {
  public EksPublicEndpointOpen() {
    super(
        "eks-public-endpoint-open",
        Severity.ERROR,
        "public EKS endpoint without publicCidrs, or open to the internet",
        "With the public endpoint on, EKS accepts API requests from publicAccessCidrs, which"
            + " defaults to 0.0.0.0/0: the whole internet can reach the API server (authentication"
            + " still applies). gpugen refuses to default to it: list the CIDRs of your offices,"
            + " VPN or CI, or keep endpointAccess: private and reach the API from the VPC."
            + " Source: https://docs.aws.amazon.com/eks/latest/userguide/cluster-endpoint.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    spec.kubernetes()
        .filter(k -> k.eks() && k.publicEndpoint())
        .ifPresent(
            k -> {
              if (k.publicCidrs().isEmpty()) {
                findings.report(
                    SpecPath.of("kubernetes", "endpointAccess"),
                    "endpointAccess public-and-private needs kubernetes.publicCidrs: without them"
                        + " EKS opens the endpoint to 0.0.0.0/0",
                    "add publicCidrs: [203.0.113.0/24] (who may reach the API), or use"
                        + " endpointAccess: private");
              }
              for (int i = 0; i < k.publicCidrs().size(); i++) {
                if (k.publicCidrs().get(i).endsWith("/0")) {
                  findings.report(
                      SpecPath.of("kubernetes", "publicCidrs", i),
                      "kubernetes.publicCidrs "
                          + k.publicCidrs().get(i)
                          + " opens the EKS API endpoint to the whole internet",
                      "list the CIDRs that need the API, or use endpointAccess: private");
                }
              }
            });
  }
}
