package dev.gpugen.lint;

import dev.gpugen.lint.rules.spec.SpecLintSettings;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SourceMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Runs the rules over a resolved spec, honouring skips and severity changes from spec and CLI. */
public final class Linter {
  private final List<Rule> rules;
  private final boolean specSuppressions;

  public Linter(List<Rule> rules) {
    this(rules, true);
  }

  /**
   * @param specSuppressions false ignores the spec's lint.skip and lint.severity (CI's
   *     --no-spec-suppressions)
   */
  public Linter(List<Rule> rules, boolean specSuppressions) {
    this.rules = List.copyOf(rules);
    this.specSuppressions = specSuppressions;
  }

  /**
   * @param skipIds rule ids skipped on the command line (added to the spec's {@code lint.skip})
   */
  public List<Diagnostic> run(ClusterPlan plan, SourceMap sources, Set<String> skipIds) {
    ClusterSpec spec = plan.spec();
    Set<String> skip = new HashSet<>(skipIds);
    Map<String, Severity> regrade = new TreeMap<>();
    if (specSuppressions) {
      // A security rule is switched off by the spec only with a written reason.
      ClusterSpec.Lint lint = spec.lint();
      lint.skip().stream().filter(id -> SpecLintSettings.justified(lint, id)).forEach(skip::add);
      lint.severity()
          .forEach(
              (id, s) -> {
                if (SpecLintSettings.justified(lint, id) || s.equals("error")) {
                  regrade.put(id, Severity.valueOf(s.toUpperCase(Locale.ROOT)));
                }
              });
    }
    Findings findings = new Findings(sources);
    for (Rule r : rules) {
      if (r.id().equals(SpecLintSettings.ID) || !skip.contains(r.id())) {
        findings.use(r);
        r.check(plan, findings);
      }
    }
    List<Diagnostic> out = new ArrayList<>();
    for (Diagnostic d : findings.all()) {
      Severity s = d.ruleId().equals(SpecLintSettings.ID) ? null : regrade.get(d.ruleId());
      out.add(s == null ? d : d.withSeverity(s));
    }
    return out;
  }
}
