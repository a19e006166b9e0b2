package dev.gpugen.lint;

import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;

/**
 * One check over the resolved spec. Implementations are small, stateless and listed explicitly in
 * {@link Rules}; their id is stable forever (users skip or re-grade rules by id).
 */
public interface Rule {
  /** Stable kebab-case id, e.g. {@code spec-subnet-outside-vpc}. */
  String id();

  Severity defaultSeverity();

  /** One line for listings and {@code gpugen explain}. */
  String summary();

  /** Why the rule exists and how to fix a finding, with the source link; for {@code explain}. */
  String documentation();

  void check(ClusterSpec spec, Findings findings);
}
