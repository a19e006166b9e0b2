package dev.gpugen.lint.rules.spec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.HashMap;
import java.util.Map;

/** Pool names are tags, group names and resource names: they must be unique. */
public final class SpecDuplicatePool extends Rule {
  public SpecDuplicatePool() {
    super(
        "spec-duplicate-pool",
        Severity.ERROR,
        "two pools have the same name",
        "A pool's name becomes the gpugen:pool tag, the inventory group pool_<name>, Terraform"
            + " resource names and file names. Two pools with one name would share all of them, so one"
            + " would silently take the other's nodes. Rename one of the pools.");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < spec.pools().size(); i++) {
      String name = spec.pools().get(i).name();
      Integer first = seen.putIfAbsent(name, i);
      if (first != null) {
        findings.report(
            SpecPath.of("pools", i, "name"),
            "pools[" + i + "].name " + name + " is already used by pools[" + first + "]",
            "give every pool its own name");
      }
    }
  }
}
