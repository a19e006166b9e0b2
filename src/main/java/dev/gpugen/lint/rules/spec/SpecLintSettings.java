package dev.gpugen.lint.rules.spec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.Rules;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import dev.gpugen.spec.yaml.ReaderRules;
import dev.gpugen.spec.yaml.Suggest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The spec's own lint settings: an id that names no rule would silently skip nothing, a reader
 * error cannot be skipped, and a security rule is switched off only with a written reason.
 */
public final class SpecLintSettings extends Rule {
  public static final String ID = "spec-lint-settings";

  public SpecLintSettings() {
    super(
        ID,
        Severity.ERROR,
        "lint.skip, lint.severity or lint.reasons name no rule, or switch off a security rule"
            + " without a reason",
        "A misspelled id in lint.skip skips nothing and says nothing, so a rule the team thinks"
            + " is off still fails CI, or one it means to keep is re-graded under another name."
            + " Reader errors (spec-unknown-key, spec-type, ...) stop the spec from being read and"
            + " cannot be skipped. A security rule (sec-*) that the spec skips or grades below"
            + " error needs lint.reasons.<id>: a written reason, reported as the suppression's"
            + " justification in SARIF; without one the rule stays on. CI can ignore every"
            + " suppression in the spec with --no-spec-suppressions. This rule cannot be skipped.");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    Set<String> lint = new TreeSet<>();
    Rules.all().forEach(r -> lint.add(r.id()));
    Set<String> all = new TreeSet<>(lint);
    all.addAll(ReaderRules.all().keySet());
    ClusterSpec.Lint l = spec.lint();
    List<String> skip = l.skip();
    for (int i = 0; i < skip.size(); i++) {
      String id = skip.get(i);
      SpecPath at = SpecPath.of("lint", "skip", i);
      if (checkId(findings, at, "lint.skip[" + i + "]", id, lint, all)) {
        unjustified(findings, l, at, id, "skips", "");
      }
    }
    for (Map.Entry<String, String> e : l.severity().entrySet()) {
      SpecPath at = SpecPath.of("lint", "severity", e.getKey());
      String where = "lint.severity." + e.getKey();
      if (checkId(findings, at, where, e.getKey(), lint, all) && !e.getValue().equals("error")) {
        unjustified(findings, l, at, e.getKey(), "re-grades", " as " + e.getValue());
      }
    }
    for (String id : l.reasons().keySet()) {
      checkId(findings, SpecPath.of("lint", "reasons", id), "lint.reasons." + id, id, lint, all);
    }
  }

  /** Whether {@code id} is a lint rule; reports it otherwise. */
  private static boolean checkId(
      Findings findings, SpecPath at, String where, String id, Set<String> lint, Set<String> all) {
    if (lint.contains(id) && !id.equals(ID)) {
      return true;
    }
    if (id.equals(ID) || all.contains(id)) {
      findings.report(
          at,
          where
              + " is "
              + id
              + ", which cannot be skipped or re-graded"
              + (id.equals(ID) ? "" : ": a reader error stops the spec from being read"),
          "fix what the finding says instead");
      return false;
    }
    String near = Suggest.closest(id, all);
    findings.report(
        at,
        where
            + " is "
            + id
            + ", which is not a rule id"
            + (near == null ? "" : "; did you mean " + near + "?"),
        "gpugen explain lists every rule id");
    return false;
  }

  private static void unjustified(
      Findings findings, ClusterSpec.Lint l, SpecPath at, String id, String what, String as) {
    if (id.startsWith("sec-") && !l.reasons().containsKey(id)) {
      findings.report(
          at,
          "the spec "
              + what
              + " the security rule "
              + id
              + as
              + " without a reason, so it stays as it is",
          "add lint.reasons." + id + ": \"why this is safe here\" (or fix what it finds)");
    }
  }

  /** Whether the spec's setting for {@code id} is honoured: security rules need a reason. */
  public static boolean justified(ClusterSpec.Lint l, String id) {
    return !id.startsWith("sec-") || l.reasons().containsKey(id);
  }
}
