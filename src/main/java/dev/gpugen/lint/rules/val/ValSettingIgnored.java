package dev.gpugen.lint.rules.val;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.ValidationState;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.ArrayList;
import java.util.List;

/**
 * A validation key the target does nothing with: the scheduling gate without a Kubernetes cluster
 * gpugen validates node by node, and the outlier settings on GKE, whose checks have no per-node
 * figures.
 */
public final class ValSettingIgnored extends Rule {
  public ValSettingIgnored() {
    super(
        "val-setting-ignored",
        Severity.WARNING,
        "a validation key the chosen target does not apply",
        "validation.gateScheduling taints the Kubernetes nodes that play 05 has not passed"
            + " (gpugen.dev/validation=pending:NoSchedule) and play 05 removes the taint: it needs"
            + " a kubernetes: section, and a target whose play 05 validates each node (aws and"
            + " static). On GKE play 05 runs one validation Job per node pool, so there is no"
            + " verdict per node to gate on, and no per-node figures to compare with a pool's"
            + " median: validation.outlierPercent and validation.outlierFails do nothing there"
            + " either. Remove the keys, or add kubernetes: to the spec. Sources:"
            + " https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/ ,"
            + " https://github.com/NVIDIA/NVSentinel/blob/main/docs/configuration/fault-quarantine.md");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    List<SpecPath> sections = new ArrayList<>();
    sections.add(SpecPath.of("validation"));
    for (int i = 0; i < plan.spec().pools().size(); i++) {
      sections.add(SpecPath.of("pools", i, "validation"));
    }
    for (SpecPath section : sections) {
      SpecPath gate = section.key("gateScheduling");
      if (!ValidationState.applies(plan) && findings.isWritten(gate)) {
        findings.report(
            gate,
            gate
                + " does nothing "
                + (plan.gke()
                    ? "on GKE: play 05 validates each node pool with one Job, not each node"
                    : "without a kubernetes: section: there are no nodes to taint"),
            plan.gke() ? "remove it" : "remove it, or add kubernetes: to the spec");
      }
      if (plan.gke()) {
        for (String key : List.of("outlierPercent", "outlierFails")) {
          SpecPath path = section.key(key);
          if (findings.isWritten(path)) {
            findings.report(
                path,
                path
                    + " does nothing on GKE: play 05's Job per node pool measures no figures per"
                    + " node to compare with the pool's median",
                "remove it");
          }
        }
      }
    }
  }
}
