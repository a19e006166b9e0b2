package dev.gpugen.lint.rules.sys;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.Optional;

/** The default memory-map limit is low for data loaders that mmap many files. */
public final class SysMaxMapCountLow extends Rule {
  static final String KEY = "vm.max_map_count";
  static final long DEFAULT = 65530;

  public SysMaxMapCountLow() {
    super(
        "sys-max-map-count-low",
        Severity.INFO,
        "vm.max_map_count stays at the kernel default",
        "vm.max_map_count caps the memory map areas of one process (default 65530). Training data"
            + " loaders that memory-map many shards, and large models loaded with mmap, run into it"
            + " (ENOMEM from mmap). Raising it (262144 or more) costs nothing for other workloads."
            + " A heuristic: no NVIDIA document mandates it."
            + " Source: https://docs.kernel.org/admin-guide/sysctl/vm.html#max-map-count");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    if (plan.gke()) {
      return; // gpugen configures no GKE node's kernel (spec-setting-ignored)
    }
    ClusterSpec spec = plan.spec();
    Optional<String> value = Optional.ofNullable(spec.kernel().sysctl().get(KEY));
    Optional<Long> n = value.flatMap(Nccl::integer);
    if (value.isPresent() && (n.isEmpty() || n.get() > DEFAULT)) {
      return;
    }
    findings.report(
        value.isPresent() ? SpecPath.of("kernel", "sysctl", KEY) : SpecPath.of("kernel"),
        KEY
            + (value.isPresent() ? " " + value.get() : " is not set, so it stays at " + DEFAULT)
            + ": data loaders that mmap many files can run out of map areas",
        "set kernel.sysctl." + KEY + ": 262144 (or higher)");
  }
}
