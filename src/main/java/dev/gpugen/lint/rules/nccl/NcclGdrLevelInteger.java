package dev.gpugen.lint.rules.nccl;

import dev.gpugen.compat.NcclFacts;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import java.util.Optional;

/** The integer form of NCCL_NET_GDR_LEVEL is legacy and easy to misread. */
public final class NcclGdrLevelInteger extends Rule {
  public NcclGdrLevelInteger() {
    super(
        "nccl-gdr-level-integer",
        Severity.WARNING,
        "NCCL_NET_GDR_LEVEL is written as a legacy integer",
        "NCCL still reads NCCL_NET_GDR_LEVEL as an integer (LOC=0, PIX=1, PXB=2, PHB=3, SYS=4) but"
            + " documents the words; the integers are discouraged because they read like a"
            + " strength and their meaning has shifted as NCCL added topology levels. Write the word."
            + " Source: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    NcclFacts facts = plan.compat().nccl();
    for (String name : NcclGdrLevelInvalid.NAMES) {
      Optional<Long> n = Nccl.get(spec, name).flatMap(Nccl::integer);
      if (n.isPresent() && n.get() >= 0 && n.get() <= facts.maxLevelInteger()) {
        String word = facts.netGdrLevels().get(n.get().intValue());
        findings.report(
            Nccl.path(name),
            name + "=" + n.get() + " is a legacy integer level; it means " + word,
            "write " + name + ": " + word);
      }
    }
  }
}
