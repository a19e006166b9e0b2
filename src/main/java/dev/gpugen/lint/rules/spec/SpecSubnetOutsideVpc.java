package dev.gpugen.lint.rules.spec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Cidr;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** A subnet must lie inside its VPC's block, or EC2 refuses to create it. */
public final class SpecSubnetOutsideVpc extends Rule {
  public SpecSubnetOutsideVpc() {
    super(
        "spec-subnet-outside-vpc",
        Severity.ERROR,
        "network.subnetCidr is not inside network.vpcCidr",
        "EC2 creates a subnet only inside its VPC's CIDR block (CreateSubnet fails with"
            + " InvalidSubnet.Range otherwise). Choose a subnetCidr within vpcCidr, e.g. the first /20"
            + " of the VPC.");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    ClusterSpec.Network n = spec.network();
    if (n.vpcCidr().isEmpty() || n.subnetCidr().isEmpty()) {
      return;
    }
    Cidr vpc = Cidr.parse(n.vpcCidr().get());
    Cidr subnet = Cidr.parse(n.subnetCidr().get());
    if (!vpc.contains(subnet)) {
      findings.report(
          SpecPath.of("network", "subnetCidr"),
          "network.subnetCidr " + subnet + " is not inside network.vpcCidr " + vpc,
          "use a block inside "
              + vpc.canonical()
              + ", e.g. "
              + new Cidr(vpc.canonical().network(), Math.max(vpc.bits(), 20)));
    }
  }
}
