package dev.gpugen.lint.rules.nccl;

import dev.gpugen.compat.NcclFacts;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import java.util.List;
import java.util.Optional;

/** NCCL_NET_GDR_LEVEL takes a topology level, not a strength from 0 to 5. */
public final class NcclGdrLevelInvalid extends Rule {
  static final List<String> NAMES = List.of("NCCL_NET_GDR_LEVEL", "NCCL_IB_GDR_LEVEL");

  public NcclGdrLevelInvalid() {
    super(
        "nccl-gdr-level-invalid",
        Severity.ERROR,
        "NCCL_NET_GDR_LEVEL is not a level NCCL knows",
        "NCCL_NET_GDR_LEVEL (NCCL_IB_GDR_LEVEL before 2.4) is the furthest topology distance at"
            + " which NCCL uses GPUDirect RDMA between a NIC and a GPU: LOC (never), PIX (same PCI"
            + " switch), PXB (through PCI switches), PHB (same NUMA node, through the CPU), SYS"
            + " (across CPU sockets). It is not a strength from 0 to 5: the legacy integers are"
            + " LOC=0 to SYS=4 and \"values greater than 4 will be interpreted as SYS\", so 5 means"
            + " GPUDirect RDMA across sockets, often slower than the default NCCL picks from the"
            + " topology. It is also a debugging variable; leave it unset unless a measured problem"
            + " needs it."
            + " Source: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    NcclFacts facts = plan.compat().nccl();
    for (String name : NAMES) {
      Optional<String> value = Nccl.get(spec, name);
      if (value.isEmpty() || NcclFacts.match(facts.netGdrLevels(), value.get()).isPresent()) {
        continue;
      }
      Optional<Long> n = Nccl.integer(value.get());
      if (n.isPresent() && n.get() >= 0 && n.get() <= facts.maxLevelInteger()) {
        continue; // legacy integer: nccl-gdr-level-integer
      }
      String why =
          n.isPresent() && n.get() > facts.maxLevelInteger()
              ? " is not a level: NCCL reads integers above "
                  + facts.maxLevelInteger()
                  + " as SYS (GPUDirect RDMA even across CPU sockets)"
              : " is not a level";
      findings.report(
          Nccl.path(name),
          name + "=" + value.get() + why,
          "remove it (NCCL picks from the topology) or use one of "
              + String.join(", ", facts.netGdrLevels()));
    }
  }
}
