package dev.gpugen.lint;

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

  public Linter(List<Rule> rules) {
    this.rules = List.copyOf(rules);
  }

  /**
   * @param skipIds rule ids skipped on the command line (added to the spec's {@code lint.skip})
   */
  public List<Diagnostic> run(ClusterPlan plan, SourceMap sources, Set<String> skipIds) {
    ClusterSpec spec = plan.spec();
    Set<String> skip = new HashSet<>(skipIds);
    skip.addAll(spec.lint().skip());
    Map<String, Severity> regrade = new TreeMap<>();
    spec.lint()
        .severity()
        .forEach((id, s) -> regrade.put(id, Severity.valueOf(s.toUpperCase(Locale.ROOT))));
    Findings findings = new Findings(sources);
    for (Rule r : rules) {
      if (!skip.contains(r.id())) {
        findings.use(r);
        r.check(plan, findings);
      }
    }
    List<Diagnostic> out = new ArrayList<>();
    for (Diagnostic d : findings.all()) {
      Severity s = regrade.get(d.ruleId());
      out.add(s == null ? d : d.withSeverity(s));
    }
    return out;
  }
}
