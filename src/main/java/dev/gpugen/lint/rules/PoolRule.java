package dev.gpugen.lint.rules;

import dev.gpugen.compat.CompatTable;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;

/**
 * A rule judged once per pool, on the pool's resolved software (cluster-wide values, the {@code
 * --env} overlay and the pool's own overrides merged) and the hardware its instance type implies.
 */
public abstract class PoolRule extends Rule {
  protected PoolRule(String id, Severity severity, String summary, String documentation) {
    super(id, severity, summary, documentation);
  }

  @Override
  public final void check(ClusterSpec spec, Findings findings) {
    CompatTable table = CompatTable.load();
    for (int i = 0; i < spec.pools().size(); i++) {
      ClusterSpec.Pool pool = spec.pools().get(i);
      check(new PoolContext(spec, i, pool, Hardware.of(spec, pool, table), table), findings);
    }
  }

  protected abstract void check(PoolContext p, Findings findings);
}
