package dev.gpugen.lint.rules.nccl;

import dev.gpugen.compat.NcclFacts;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** NCCL variables with a fixed vocabulary, or that must be numbers. */
public final class NcclValueInvalid extends Rule {
  public NcclValueInvalid() {
    super(
        "nccl-value-invalid",
        Severity.ERROR,
        "an NCCL variable has a value NCCL does not accept",
        "Several NCCL variables take a fixed vocabulary: NCCL_DEBUG (VERSION, WARN, INFO, TRACE),"
            + " NCCL_ALGO (Ring, Tree, CollnetChain, CollnetDirect, NVLS, NVLSTree, PAT; a list, '^'"
            + " to exclude, 'func:list' per collective), NCCL_PROTO (LL, LL128, Simple),"
            + " NCCL_P2P_LEVEL (LOC, NVL, PIX, PXB, PHB, SYS). The *_DISABLE and *_ENABLE switches"
            + " are numbers. NCCL ignores a value it cannot parse (with a warning in the log) or,"
            + " since 2.24, fails the job on an unknown algorithm, so a typo silently changes or"
            + " breaks every job. NCCL_NET_GDR_LEVEL has its own rules (nccl-gdr-level-*)."
            + " Source: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    NcclFacts facts = plan.compat().nccl();
    for (Map.Entry<String, String> e : spec.nccl().env().entrySet()) {
      String name = e.getKey();
      String value = e.getValue();
      List<String> bad =
          switch (name) {
            case "NCCL_DEBUG" ->
                NcclFacts.match(facts.debugLevels(), value).isPresent()
                    ? List.of()
                    : List.of(value);
            case "NCCL_ALGO" -> unknownTokens(value, facts.algorithms());
            case "NCCL_PROTO" -> unknownTokens(value, facts.protocols());
            case "NCCL_P2P_LEVEL" ->
                NcclFacts.match(facts.p2pLevels(), value).isPresent()
                        || Nccl.integer(value).filter(n -> n >= 0).isPresent()
                    ? List.of()
                    : List.of(value);
            default ->
                (name.endsWith("_DISABLE") || name.endsWith("_ENABLE"))
                        && name.startsWith("NCCL_")
                        && Nccl.integer(value).isEmpty()
                    ? List.of(value)
                    : List.of();
          };
      if (bad.isEmpty()) {
        continue;
      }
      String expected =
          switch (name) {
            case "NCCL_DEBUG" -> String.join(", ", facts.debugLevels());
            case "NCCL_ALGO" -> String.join(", ", facts.algorithms());
            case "NCCL_PROTO" -> String.join(", ", facts.protocols());
            case "NCCL_P2P_LEVEL" -> String.join(", ", facts.p2pLevels());
            default -> "0 or 1";
          };
      findings.report(
          Nccl.path(name),
          name + "=" + value + ": NCCL does not know " + String.join(", ", bad),
          "use " + expected);
    }
  }

  /** The names in an NCCL_ALGO/NCCL_PROTO value ("^a,b" or "a;allreduce:b,c") not in known. */
  static List<String> unknownTokens(String value, List<String> known) {
    List<String> bad = new ArrayList<>();
    for (String group : value.split(";", -1)) {
      String list = group.contains(":") ? group.substring(group.indexOf(':') + 1) : group;
      if (list.startsWith("^")) {
        list = list.substring(1);
      }
      for (String token : list.split(",", -1)) {
        if (NcclFacts.match(known, token).isEmpty()) {
          bad.add(token.isEmpty() ? "\"\"" : token);
        }
      }
    }
    return bad;
  }
}
