package dev.gpugen.lint.rules.net;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Internet;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** network.internet must fit where the VPC comes from. */
public final class NetInternetMismatch extends Rule {
  public NetInternetMismatch() {
    super(
        "net-internet-mismatch",
        Severity.ERROR,
        "network.internet does not fit the VPC: nat or none for an existing VPC, or existing for"
            + " a VPC gpugen creates",
        "gpugen builds the nodes' way to the internet only in a VPC it creates: internet: nat adds"
            + " a NAT gateway in a small public subnet and the nodes' default route through it;"
            + " internet: none adds none (and, with the SSM connection, the VPC interface endpoints"
            + " SSM needs). An existing VPC (network.vpcId) keeps its own routes: write internet:"
            + " existing (its default), and make sure the subnet routes to the package"
            + " repositories. A VPC gpugen creates has no routes of its own, so existing is wrong"
            + " there. Source: https://docs.aws.amazon.com/vpc/latest/userguide/vpc-nat-gateway.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    if (spec.cloud().provider() != Provider.AWS) {
      return;
    }
    ClusterSpec.Network n = spec.network();
    if (!n.createsVpc() && n.internet() != Internet.EXISTING) {
      findings.report(
          SpecPath.of("network", "internet"),
          "network.internet: "
              + n.internet()
              + " needs a VPC gpugen creates, but network.vpcId names an existing one",
          "write internet: existing (the VPC's own routes), or drop vpcId/subnetId");
    }
    if (n.createsVpc() && n.internet() == Internet.EXISTING) {
      findings.report(
          SpecPath.of("network", "internet"),
          "network.internet: existing, but gpugen creates this VPC: it has no routes of its own",
          "write internet: nat (a NAT gateway) or none (air-gapped), or set vpcId and subnetId");
    }
  }
}
