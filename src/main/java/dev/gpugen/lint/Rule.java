package dev.gpugen.lint;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import java.util.Objects;

/**
 * One check over the resolved spec and the facts its plan derives. Subclasses are small and
 * stateless, listed explicitly in {@link Rules}, and pass their fixed facts to this constructor;
 * the id is stable forever (users skip or re-grade rules by id).
 */
public abstract class Rule {
  private final String id;
  private final Severity defaultSeverity;
  private final String summary;
  private final String documentation;

  /**
   * @param id stable kebab-case id, e.g. {@code spec-subnet-outside-vpc}
   * @param summary one line for listings
   * @param documentation why the rule exists and how to fix a finding, with its source, for {@code
   *     gpugen explain}
   */
  protected Rule(String id, Severity defaultSeverity, String summary, String documentation) {
    this.id = Objects.requireNonNull(id);
    this.defaultSeverity = Objects.requireNonNull(defaultSeverity);
    this.summary = Objects.requireNonNull(summary);
    this.documentation = Objects.requireNonNull(documentation);
  }

  public final String id() {
    return id;
  }

  public final Severity defaultSeverity() {
    return defaultSeverity;
  }

  public final String summary() {
    return summary;
  }

  public final String documentation() {
    return documentation;
  }

  public abstract void check(ClusterPlan plan, Findings findings);
}
