package dev.gpugen.lint.rules.net;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Cidr;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.List;
import java.util.stream.Collectors;

/** A node subnet with fewer addresses than the instances, endpoints and load balancer need. */
public final class NetSubnetTooSmall extends Rule {
  /** The first four addresses and the last one of every subnet. */
  static final int RESERVED = 5;

  public NetSubnetTooSmall() {
    super(
        "net-subnet-too-small",
        Severity.ERROR,
        "the node subnet has fewer usable addresses than the render puts in it",
        "AWS reserves five addresses of every subnet (the network address, the VPC router, the"
            + " DNS server, one for future use and the last), so a /28 holds 11 instances, not 16."
            + " The node subnet of a VPC gpugen creates must hold an address for each instance of"
            + " every pool (the primary interface on network card 0; the EFA-only interfaces of"
            + " the other cards take none), each control-plane instance of kubeadm, each interface"
            + " endpoint of an air-gapped VPC, and the free addresses an internal load balancer (8)"
            + " or EKS (6) asks for; otherwise instances fail to launch once the addresses run out."
            + " Pods of the AWS VPC CNI and FSx for Lustre's interfaces take more, which this rule"
            + " does not count: leave room. Sources:"
            + " https://docs.aws.amazon.com/vpc/latest/userguide/subnet-sizing.html ,"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa.html ,"
            + " https://docs.aws.amazon.com/vpc/latest/privatelink/privatelink-access-aws-services.html ,"
            + " https://docs.aws.amazon.com/elasticloadbalancing/latest/network/availability-zones.html ,"
            + " https://docs.aws.amazon.com/eks/latest/userguide/network-reqs.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec.Network n = plan.spec().network();
    List<ClusterPlan.AddressUse> uses = plan.nodeSubnetUses();
    if (uses.isEmpty() || n.subnetCidr().isEmpty()) {
      return;
    }
    Cidr subnet = Cidr.parse(n.subnetCidr().get());
    if (subnet.bits() < 16 || subnet.bits() > 28) {
      // net-vpc-cidr-size reports it.
      return;
    }
    long usable = (1L << (32 - subnet.bits())) - RESERVED;
    long needed = uses.stream().mapToLong(ClusterPlan.AddressUse::addresses).sum();
    if (needed <= usable) {
      return;
    }
    SpecPath at = SpecPath.of("network", "subnetCidr");
    if (!findings.isWritten(at)) {
      at = SpecPath.of("network", "vpcCidr");
    }
    int bits = 28;
    while (bits > 16 && (1L << (32 - bits)) - RESERVED < needed) {
      bits--;
    }
    findings.report(
        at,
        "the node subnet "
            + subnet
            + " has "
            + usable
            + " usable addresses ("
            + (1L << (32 - subnet.bits()))
            + " less the "
            + RESERVED
            + " AWS reserves), but the render needs "
            + needed
            + ": "
            + uses.stream()
                .map(u -> u.what() + " (" + u.addresses() + ")")
                .collect(Collectors.joining(", ")),
        "use a /" + bits + " or larger subnetCidr (and a vpcCidr that holds it)");
  }
}
