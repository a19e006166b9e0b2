package dev.gpugen.lint.rules.net;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Cidr;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.Map;

/** A VPC in a range no host address may come from: loopback, link-local, multicast, reserved. */
public final class NetCidrSpecialRange extends Rule {
  /** IANA's special-purpose ranges that are no unicast host addresses, and what each is. */
  private static final Map<String, String> SPECIAL =
      Map.of(
          "0.0.0.0/8", "\"this network\" (RFC 1122), no host's address",
          "127.0.0.0/8", "loopback (RFC 1122): every host's own address",
          "169.254.0.0/16",
              "link-local (RFC 3927), where EC2 serves the instance metadata service and the Amazon"
                  + " DNS and time servers",
          "224.0.0.0/4", "multicast (RFC 5771), no host's address",
          "240.0.0.0/4", "reserved (RFC 1112), with the broadcast address 255.255.255.255");

  public NetCidrSpecialRange() {
    super(
        "net-cidr-special-range",
        Severity.ERROR,
        "the VPC or subnet block lies in loopback, link-local, multicast or reserved space",
        "A VPC's addresses are host addresses, so its block must come from unicast space:"
            + " 0.0.0.0/8, 127.0.0.0/8 (loopback), 169.254.0.0/16 (link-local, where EC2 answers"
            + " the instance metadata service at 169.254.169.254 and DNS at 169.254.169.253),"
            + " 224.0.0.0/4 (multicast) and 240.0.0.0/4 (reserved) are not. AWS recommends the"
            + " private ranges of RFC 1918. Sources:"
            + " https://docs.aws.amazon.com/vpc/latest/userguide/vpc-cidr-blocks.html ,"
            + " https://www.iana.org/assignments/iana-ipv4-special-registry/ (RFC 6890),"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-data-retrieval.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec.Network n = plan.spec().network();
    if (!plan.aws() || !n.createsVpc()) {
      return;
    }
    SpecPath vpc = SpecPath.of("network", "vpcCidr");
    boolean vpcOk = n.vpcCidr().map(c -> check(c, vpc, findings)).orElse(true);
    SpecPath subnet = SpecPath.of("network", "subnetCidr");
    if (vpcOk || findings.isWritten(subnet)) {
      n.subnetCidr().ifPresent(c -> check(c, subnet, findings));
    }
  }

  private static boolean check(String text, SpecPath path, Findings findings) {
    Cidr block = Cidr.parse(text).canonical();
    for (Map.Entry<String, String> e : new java.util.TreeMap<>(SPECIAL).entrySet()) {
      Cidr special = Cidr.parse(e.getKey());
      if (special.contains(block) || block.contains(special)) {
        findings.report(
            path,
            path + " " + text + " overlaps " + e.getKey() + ", " + e.getValue(),
            "use a private range (RFC 1918): 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16, e.g."
                + " 10.0.0.0/16");
        return false;
      }
    }
    return true;
  }
}
