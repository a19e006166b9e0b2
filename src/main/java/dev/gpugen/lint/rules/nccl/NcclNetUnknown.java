package dev.gpugen.lint.rules.nccl;

import dev.gpugen.compat.NcclFacts;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;

/** NCCL_NET must name a network NCCL or a loaded plugin registered. */
public final class NcclNetUnknown extends Rule {
  public NcclNetUnknown() {
    super(
        "nccl-net-unknown",
        Severity.ERROR,
        "NCCL_NET names no network NCCL knows",
        "NCCL_NET forces the network NCCL uses and must match a registered network's name"
            + " exactly (case aside): NCCL's own IB and Socket, or the name a net plugin registers -"
            + " aws-ofi-nccl registers Libfabric. Guesses such as ofi, efa or aws match nothing and"
            + " NCCL fails to initialise. Leave it unset (NCCL picks the best network) or use one of"
            + " the names."
            + " Sources: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html ,"
            + " https://github.com/aws/aws-ofi-nccl");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    NcclFacts facts = plan.compat().nccl();
    Nccl.get(spec, "NCCL_NET")
        .filter(v -> NcclFacts.match(facts.netNames(), v).isEmpty())
        .ifPresent(
            v ->
                findings.report(
                    Nccl.path("NCCL_NET"),
                    "NCCL_NET=" + v + " names no NCCL network; NCCL will fail to initialise",
                    "remove NCCL_NET, or use one of " + String.join(", ", facts.netNames())));
  }
}
