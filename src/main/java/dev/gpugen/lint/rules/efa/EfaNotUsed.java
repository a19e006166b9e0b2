package dev.gpugen.lint.rules.efa;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** A multi-node pool of EFA-capable instances that talks over plain TCP. */
public final class EfaNotUsed extends PoolRule {
  public EfaNotUsed() {
    super(
        "efa-not-used",
        Severity.WARNING,
        "multi-node pool on an EFA-capable type with network.fabric tcp",
        "The pool's instance type has EFA (up to 3200 Gbps on p5, through 32 network cards), but"
            + " network.fabric is tcp, so NCCL runs its socket transport over the ENA interface:"
            + " inter-node collectives at a fraction of the bandwidth. Use network.fabric: efa"
            + " (the default for a pool whose type has EFA, when network.fabric is not written)."
            + " Sources: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa-acc-inst-types.html ,"
            + " https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.spec().cloud().provider() != Provider.AWS
        || p.pool().fabric() != Fabric.TCP
        || p.pool().count() < 2) {
      return;
    }
    p.hardware()
        .aws()
        .filter(a -> a.efa())
        .ifPresent(
            a ->
                findings.report(
                    SpecPath.of("network", "fabric"),
                    p.describe()
                        + " has EFA ("
                        + a.networkGbps()
                        + " Gbps) but its "
                        + p.pool().count()
                        + " nodes talk over TCP (network.fabric tcp)",
                    "use network.fabric: efa"));
  }
}
