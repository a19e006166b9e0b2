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
import java.util.Optional;
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
   * A finding of a rule the spec skips ({@code lint.skip}): not an error of the run, but reported
   * in SARIF as a suppression, with the spec's written reason ({@code lint.reasons.<id>}) as its
   * justification.
   */
  public record Suppressed(Diagnostic finding, Optional<String> justification)
      implements Comparable<Suppressed> {
    @Override
    public int compareTo(Suppressed o) {
      return finding.compareTo(o.finding);
    }
  }

  /** What a run found: the findings, and those the spec suppressed. */
  public record Result(List<Diagnostic> findings, List<Suppressed> suppressed) {
    public Result {
      findings = List.copyOf(findings);
      suppressed = List.copyOf(suppressed);
    }
  }

  /**
   * @param skipIds rule ids skipped on the command line (their rules do not run at all)
   */
  public Result run(ClusterPlan plan, SourceMap sources, Set<String> skipIds) {
    ClusterSpec spec = plan.spec();
    ClusterSpec.Lint lint = spec.lint();
    Set<String> specSkip = new HashSet<>();
    Map<String, Severity> regrade = new TreeMap<>();
    if (specSuppressions) {
      // A security rule is switched off by the spec only with a written reason.
      lint.skip().stream()
          .filter(id -> SpecLintSettings.justified(lint, id))
          .forEach(specSkip::add);
      lint.severity()
          .forEach(
              (id, s) -> {
                if (SpecLintSettings.justified(lint, id) || s.equals("error")) {
                  regrade.put(id, Severity.valueOf(s.toUpperCase(Locale.ROOT)));
                }
              });
    }
    Findings findings = new Findings(sources);
    // The rules the spec skips still run, so that SARIF shows what was suppressed and why.
    Findings suppressed = new Findings(sources);
    for (Rule r : rules) {
      if (r.id().equals(SpecLintSettings.ID)
          || !(skipIds.contains(r.id()) || specSkip.contains(r.id()))) {
        findings.use(r);
        r.check(plan, findings);
      } else if (!skipIds.contains(r.id())) {
        suppressed.use(r);
        r.check(plan, suppressed);
      }
    }
    List<Diagnostic> out = new ArrayList<>();
    for (Diagnostic d : findings.all()) {
      out.add(regraded(d, regrade));
    }
    List<Suppressed> quiet = new ArrayList<>();
    for (Diagnostic d : suppressed.all()) {
      quiet.add(
          new Suppressed(
              regraded(d, regrade), Optional.ofNullable(lint.reasons().get(d.ruleId()))));
    }
    return new Result(out, quiet);
  }

  private static Diagnostic regraded(Diagnostic d, Map<String, Severity> regrade) {
    Severity s = d.ruleId().equals(SpecLintSettings.ID) ? null : regrade.get(d.ruleId());
    return s == null ? d : d.withSeverity(s);
  }
}
