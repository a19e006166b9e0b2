package dev.gpugen.lint.rules.nccl;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import java.util.Optional;

/** Interface names differ between instance types and images; exclusion lists do not. */
public final class NcclSocketIfnameHardcoded extends Rule {
  public NcclSocketIfnameHardcoded() {
    super(
        "nccl-socket-ifname-hardcoded",
        Severity.WARNING,
        "NCCL_SOCKET_IFNAME names interfaces on multi-NIC instances",
        "NCCL_SOCKET_IFNAME picks the interfaces NCCL uses for bootstrap and for its TCP"
            + " transport; a list of prefixes selects, a leading '^' excludes. It does not choose"
            + " the EFA or InfiniBand devices. On instances with several network cards (p4d, p5,"
            + " p5en, p6) the interface names depend on the image and the card layout (the ENA"
            + " interface of a p5 is e.g. enp39s0, not eth0 or eth1), so a hard-coded name either"
            + " matches nothing - NCCL fails to start - or a management interface. Exclude instead:"
            + " NCCL_SOCKET_IFNAME=^lo,docker."
            + " Sources: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html ,"
            + " https://github.com/dstackai/dstack/issues/3069");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    Optional<String> value = Nccl.get(spec, "NCCL_SOCKET_IFNAME");
    if (value.isEmpty() || value.get().startsWith("^")) {
      return;
    }
    plan.pools().stream()
        .filter(p -> p.hardware().networkCards() > 1)
        .findFirst()
        .ifPresent(
            p ->
                findings.report(
                    Nccl.path("NCCL_SOCKET_IFNAME"),
                    "NCCL_SOCKET_IFNAME="
                        + value.get()
                        + " hard-codes interface names, which vary on "
                        + p.pool().instanceType()
                        + " ("
                        + p.hardware().networkCards()
                        + " network cards)",
                    "exclude instead of naming: NCCL_SOCKET_IFNAME: \"^lo,docker\""));
  }
}
