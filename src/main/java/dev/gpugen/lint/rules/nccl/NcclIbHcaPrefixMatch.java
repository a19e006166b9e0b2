package dev.gpugen.lint.rules.nccl;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import java.util.ArrayList;
import java.util.List;

/** NCCL_IB_HCA entries are prefixes unless written with '='. */
public final class NcclIbHcaPrefixMatch extends Rule {
  public NcclIbHcaPrefixMatch() {
    super(
        "nccl-ib-hca-prefix-match",
        Severity.INFO,
        "an NCCL_IB_HCA entry is a prefix that also matches other devices",
        "NCCL_IB_HCA entries are prefixes unless the list starts with '=': mlx5_1 selects mlx5_1"
            + " and also mlx5_10 to mlx5_19. On nodes with ten or more HCAs that picks devices you"
            + " did not mean. Write =mlx5_1,mlx5_2 (or ^=... to exclude exactly)."
            + " Source: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    Nccl.get(spec, "NCCL_IB_HCA")
        .ifPresent(
            value -> {
              String list = value.startsWith("^") ? value.substring(1) : value;
              if (list.startsWith("=")) {
                return;
              }
              List<String> prefixes = new ArrayList<>();
              for (String entry : list.split(",")) {
                String device = entry.split(":", 2)[0];
                if (!device.isEmpty() && Character.isDigit(device.charAt(device.length() - 1))) {
                  prefixes.add(device);
                }
              }
              if (!prefixes.isEmpty()) {
                String first = prefixes.get(0);
                findings.report(
                    Nccl.path("NCCL_IB_HCA"),
                    "NCCL_IB_HCA="
                        + value
                        + ": "
                        + first
                        + " is a prefix and also matches "
                        + first
                        + "0.."
                        + first
                        + "9",
                    "match exactly: NCCL_IB_HCA: \""
                        + (value.startsWith("^") ? "^=" : "=")
                        + list
                        + "\"");
              }
            });
  }
}
