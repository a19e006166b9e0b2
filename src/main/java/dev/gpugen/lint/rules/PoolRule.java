package dev.gpugen.lint.rules;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
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
  public final void check(ClusterPlan plan, Findings findings) {
    for (int i = 0; i < plan.pools().size(); i++) {
      PoolPlan pool = plan.pools().get(i);
      check(new PoolContext(plan.spec(), i, pool.pool(), pool.hardware(), plan.compat()), findings);
    }
  }

  protected abstract void check(PoolContext p, Findings findings);
}
