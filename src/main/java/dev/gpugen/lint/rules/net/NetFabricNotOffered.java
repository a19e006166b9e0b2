package dev.gpugen.lint.rules.net;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** Each cloud offers its own RDMA fabric: EFA on AWS, none of the others. */
public final class NetFabricNotOffered extends Rule {
  public NetFabricNotOffered() {
    super(
        "net-fabric-not-offered",
        Severity.ERROR,
        "network.fabric names a fabric the cloud does not offer",
        "EFA is the only RDMA fabric on AWS - \"InfiniBand and RoCE are not offered\" - and EFA"
            + " exists only on AWS. A spec that asks for infiniband or roce on AWS (or efa"
            + " elsewhere) describes hardware the cloud cannot give; NCCL then falls back to TCP."
            + " Use efa (or tcp) on AWS."
            + " Sources: https://docs.nvidia.com/dynamo/kubernetes-deployment/cloud-provider-guides/aws/efa-rdma-over-aws-fabric.md ,"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa-acc-inst-types.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    Provider provider = spec.cloud().provider();
    Fabric fabric = spec.network().fabric();
    if (!offered(provider, fabric)) {
      findings.report(
          SpecPath.of("network", "fabric"),
          provider + " does not offer the " + fabric + " fabric",
          provider == Provider.AWS ? "use fabric: efa (or tcp)" : "efa exists only on aws");
    }
    // A pool's own fabric (pools[].fabric), where it differs from the cluster's.
    for (int i = 0; i < spec.pools().size(); i++) {
      Fabric own = spec.pools().get(i).fabric();
      if (own != fabric && !offered(provider, own)) {
        findings.report(
            SpecPath.of("pools", i).key("fabric"),
            provider
                + " does not offer the "
                + own
                + " fabric (pool "
                + spec.pools().get(i).name()
                + ")",
            provider == Provider.AWS ? "use fabric: efa (or tcp)" : "efa exists only on aws");
      }
    }
  }

  private static boolean offered(Provider provider, Fabric fabric) {
    return switch (provider) {
      case AWS -> fabric == Fabric.EFA || fabric == Fabric.TCP;
      case GCP -> fabric != Fabric.EFA;
      case STATIC -> fabric != Fabric.EFA;
    };
  }
}
