package dev.gpugen.lint.rules.spec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Cidr;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.List;

/** 10.42.0.1/16 is almost always a typo for 10.42.0.0/16; AWS rejects such VPC blocks. */
public final class SpecCidrHostBits extends Rule {
  public SpecCidrHostBits() {
    super(
        "spec-cidr-host-bits",
        Severity.ERROR,
        "a CIDR block has host bits set (10.42.0.1/16)",
        "A CIDR block names a network, so the bits after the prefix length must be zero."
            + " 10.42.0.1/16 means 10.42.0.0/16 at best and is rejected by EC2 for VPCs and subnets at"
            + " worst. Write the network address.");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    ClusterSpec.Network n = spec.network();
    n.vpcCidr().ifPresent(c -> check(c, SpecPath.of("network", "vpcCidr"), findings));
    n.subnetCidr().ifPresent(c -> check(c, SpecPath.of("network", "subnetCidr"), findings));
    List<String> ssh = n.sshIngressCidrs();
    for (int i = 0; i < ssh.size(); i++) {
      check(ssh.get(i), SpecPath.of("network", "sshIngressCidrs", i), findings);
    }
  }

  private static void check(String text, SpecPath path, Findings findings) {
    Cidr c = Cidr.parse(text);
    if (c.hasHostBits()) {
      findings.report(
          path, path + " " + text + " has host bits set", "did you mean " + c.canonical() + "?");
    }
  }
}
