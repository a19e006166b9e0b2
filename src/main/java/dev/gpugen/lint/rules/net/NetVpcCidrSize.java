package dev.gpugen.lint.rules.net;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Cidr;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** EC2 takes VPC and subnet blocks from /16 to /28 only; anything else fails at apply. */
public final class NetVpcCidrSize extends Rule {
  public NetVpcCidrSize() {
    super(
        "net-vpc-cidr-size",
        Severity.ERROR,
        "the VPC or subnet block is larger than /16 or smaller than /28",
        "A VPC's IPv4 block, and each subnet's, is between a /16 netmask (65,536 addresses) and a"
            + " /28 netmask (16 addresses); EC2 refuses CreateVpc and CreateSubnet with any other"
            + " size, so terraform apply would fail after the plan looked fine. Applies to the VPC"
            + " gpugen creates (network.vpcCidr, network.subnetCidr). Sources:"
            + " https://docs.aws.amazon.com/vpc/latest/userguide/vpc-cidr-blocks.html ,"
            + " https://docs.aws.amazon.com/vpc/latest/userguide/subnet-sizing.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec.Network n = plan.spec().network();
    if (!plan.aws() || !n.createsVpc()) {
      return;
    }
    boolean vpcOk =
        n.vpcCidr()
            .map(c -> check(c, "VPC", SpecPath.of("network", "vpcCidr"), findings))
            .orElse(true);
    SpecPath subnet = SpecPath.of("network", "subnetCidr");
    if (vpcOk || findings.isWritten(subnet)) {
      n.subnetCidr().ifPresent(c -> check(c, "subnet", subnet, findings));
    }
  }

  private static boolean check(String text, String what, SpecPath path, Findings findings) {
    int bits = Cidr.parse(text).bits();
    if (bits >= 16 && bits <= 28) {
      return true;
    }
    findings.report(
        path,
        path
            + " "
            + text
            + " is a /"
            + bits
            + (bits < 16 ? ", larger" : ", smaller")
            + " than EC2 takes for a "
            + what
            + " (/16 to /28)",
        bits < 16
            ? "use a /16 or smaller block, e.g. "
                + new Cidr(Cidr.parse(text).canonical().network(), 16)
            : "use a /28 or larger block");
    return false;
  }
}
