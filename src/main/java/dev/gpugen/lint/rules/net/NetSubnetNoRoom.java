package dev.gpugen.lint.rules.net;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Cidr;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.Map;

/** The node subnet takes the /28 Terraform carves for the NAT gateway or EKS's second subnet. */
public final class NetSubnetNoRoom extends Rule {
  public NetSubnetNoRoom() {
    super(
        "net-subnet-no-room",
        Severity.ERROR,
        "the node subnet covers the /28 the render needs for the NAT gateway or EKS",
        "In a VPC gpugen creates, Terraform puts the NAT gateway (network.internet: nat) in the"
            + " VPC's last /28 and, with EKS, the control plane's second subnet (EKS needs subnets"
            + " in two Availability Zones) in the second-to-last /28. The node subnet"
            + " (network.subnetCidr, the VPC's first /20 by default) must leave both free: subnets"
            + " of one VPC may not overlap, and the plan stops at a precondition. A /20 VPC with"
            + " the default subnet, or any /28 VPC, leaves no room. Sources:"
            + " https://docs.aws.amazon.com/vpc/latest/userguide/configure-subnets.html ,"
            + " https://docs.aws.amazon.com/eks/latest/userguide/network-reqs.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec.Network n = plan.spec().network();
    if (!plan.aws() || !n.createsVpc() || n.subnetCidr().isEmpty() || n.vpcCidr().isEmpty()) {
      return;
    }
    Cidr subnet = Cidr.parse(n.subnetCidr().get()).canonical();
    SpecPath at = SpecPath.of("network", "subnetCidr");
    if (!findings.isWritten(at)) {
      at = SpecPath.of("network", "vpcCidr");
    }
    for (Map.Entry<String, Cidr> carved : plan.carvedSubnets().entrySet()) {
      Cidr c = carved.getValue();
      if (subnet.contains(c) || c.contains(subnet)) {
        findings.report(
            at,
            "the node subnet "
                + subnet
                + " covers "
                + c
                + ", which the render needs for "
                + carved.getKey()
                + " (the VPC "
                + n.vpcCidr().get()
                + "'s "
                + (c.network() + 16 == vpcEnd(n) ? "last" : "second-to-last")
                + " /28)",
            "make subnetCidr smaller than the VPC (e.g. its first half), or the VPC larger");
        return;
      }
    }
    boolean eks = plan.spec().kubernetes().filter(ClusterSpec.Kubernetes::eks).isPresent();
    if (eks && Cidr.parse(n.vpcCidr().get()).bits() >= 28) {
      findings.report(
          SpecPath.of("network", "vpcCidr"),
          "the VPC "
              + n.vpcCidr().get()
              + " has no room beside the node subnet for EKS's second control-plane subnet (a /28)",
          "use a larger vpcCidr, e.g. a /24");
    }
  }

  private static long vpcEnd(ClusterSpec.Network n) {
    Cidr vpc = Cidr.parse(n.vpcCidr().orElseThrow()).canonical();
    return vpc.network() + (1L << (32 - vpc.bits()));
  }
}
