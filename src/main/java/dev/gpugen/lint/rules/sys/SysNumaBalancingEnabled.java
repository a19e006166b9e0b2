package dev.gpugen.lint.rules.sys;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.Optional;

/** Automatic NUMA balancing migrates pages under GPU jobs that bind their own memory. */
public final class SysNumaBalancingEnabled extends Rule {
  static final String KEY = "kernel.numa_balancing";

  public SysNumaBalancingEnabled() {
    super(
        "sys-numa-balancing-enabled",
        Severity.INFO,
        "automatic NUMA balancing stays on for multi-socket GPU nodes",
        "The kernel's automatic NUMA balancing moves pages between NUMA nodes while a job runs;"
            + " \"if the target workload is already bound to NUMA nodes then this feature should be"
            + " disabled\", and NVIDIA's CUDA best practices advise a policy that disables it for"
            + " GPU applications. 8-GPU nodes are usually two-socket machines (no document states"
            + " it for every type). Set kernel.sysctl kernel.numa_balancing: 0."
            + " Sources: https://docs.kernel.org/admin-guide/sysctl/kernel.html#numa-balancing ,"
            + " https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#numa-best-practices");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    if (plan.gke()) {
      return; // gpugen configures no GKE node's kernel (spec-setting-ignored)
    }
    ClusterSpec spec = plan.spec();
    Optional<String> value = Optional.ofNullable(spec.kernel().sysctl().get(KEY));
    if (value.isPresent() && value.get().trim().equals("0")) {
      return;
    }
    for (int i = 0; i < plan.pools().size(); i++) {
      ClusterSpec.Pool p = plan.pools().get(i).pool();
      if (plan.pools().get(i).hardware().gpus() >= 8) {
        // Unset, the finding belongs where the multi-socket machine is chosen.
        findings.report(
            value.isPresent()
                ? SpecPath.of("kernel", "sysctl", KEY)
                : SpecPath.of("pools", i, "instanceType"),
            KEY
                + (value.isPresent() ? " is " + value.get() : " is left on (kernel default)")
                + " for the two-socket "
                + p.instanceType()
                + " nodes of pool "
                + p.name(),
            "set kernel.sysctl." + KEY + ": 0");
        return;
      }
    }
  }
}
