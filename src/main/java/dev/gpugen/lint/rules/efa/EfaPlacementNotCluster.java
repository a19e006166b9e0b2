package dev.gpugen.lint.rules.efa;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.Placement;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** Multi-node EFA traffic wants the nodes close together. */
public final class EfaPlacementNotCluster extends Rule {
  public EfaPlacementNotCluster() {
    super(
        "efa-placement-not-cluster",
        Severity.WARNING,
        "multi-node EFA pools without a cluster placement group",
        "AWS recommends launching EFA instances that talk to each other in a cluster placement"
            + " group, which packs them into one low-latency network segment; partition, spread"
            + " or no placement spreads them out and costs NCCL latency and bandwidth. Use"
            + " network.placement: cluster for multi-node training."
            + " Source: https://docs.aws.amazon.com/pcs/latest/userguide/working-with_networking_efa_create-sg.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    Placement placement = spec.network().placement();
    if (placement == Placement.CLUSTER) {
      return;
    }
    spec.pools().stream()
        .filter(p -> p.fabric() == Fabric.EFA && p.count() > 1)
        .findFirst()
        .ifPresent(
            p ->
                findings.report(
                    SpecPath.of("network", "placement"),
                    "network.placement "
                        + placement
                        + " spreads the "
                        + p.count()
                        + " EFA nodes of pool "
                        + p.name()
                        + "; multi-node training wants a cluster placement group",
                    "use placement: cluster"));
  }
}
