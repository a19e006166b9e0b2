package dev.gpugen.lint.rules.spec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** Either gpugen creates the VPC (vpcCidr) or it uses an existing one (vpcId + subnetId). */
public final class SpecNetworkSource extends Rule {
  public SpecNetworkSource() {
    super(
        "spec-network-source",
        Severity.ERROR,
        "network mixes a new VPC (vpcCidr) with an existing one (vpcId), or half of a pair",
        "network.vpcCidr and subnetCidr describe a VPC that gpugen creates; network.vpcId and"
            + " subnetId name one that exists. Write one pair or the other: with both, it is unclear"
            + " which network the nodes land in.");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    ClusterSpec.Network n = spec.network();
    if (n.vpcId().isPresent() && n.vpcCidr().isPresent()) {
      findings.report(
          SpecPath.of("network", "vpcCidr"),
          "network.vpcCidr and network.vpcId are both set",
          "remove vpcCidr/subnetCidr to use the existing VPC, or vpcId/subnetId to create one");
    }
    if (n.vpcId().isPresent() != n.subnetId().isPresent()) {
      findings.report(
          SpecPath.of("network", n.vpcId().isPresent() ? "vpcId" : "subnetId"),
          "network.vpcId and network.subnetId go together",
          "set both, or neither");
    }
  }
}
