package dev.gpugen.cli;

import dev.gpugen.ExitCodes;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.Rules;
import dev.gpugen.spec.yaml.ReaderRules;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code gpugen explain RULE}: what a rule checks, why, and how to fix a finding. */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    description = "Explain a rule id; without one, list every rule.")
final class ExplainCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "0..1",
      paramLabel = "RULE",
      description = "A rule id, e.g. spec-unknown-key.")
  String id;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (id == null) {
      ReaderRules.all().forEach((rid, doc) -> out.println(rid + "  error  (spec reader)"));
      for (Rule r : Rules.all()) {
        out.println(r.id() + "  " + r.defaultSeverity().label() + "  " + r.summary());
      }
      out.flush();
      return ExitCodes.OK;
    }
    Optional<Rule> rule = Rules.byId(id);
    if (rule.isPresent()) {
      Rule r = rule.get();
      out.println(r.id() + " (" + r.defaultSeverity().label() + "): " + r.summary());
      out.println();
      out.println(r.documentation());
    } else if (ReaderRules.doc(id).isPresent()) {
      out.println(id + " (error)");
      out.println();
      out.println(ReaderRules.doc(id).get());
    } else {
      spec.commandLine()
          .getErr()
          .println("gpugen: no rule " + id + "; run gpugen explain to list them");
      return ExitCodes.USAGE;
    }
    out.flush();
    return ExitCodes.OK;
  }
}
