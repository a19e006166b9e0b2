package dev.gpugen.cli;

import dev.gpugen.lint.Rule;
import dev.gpugen.lint.Rules;
import dev.gpugen.spec.Printable;
import dev.gpugen.spec.yaml.ReaderRules;
import dev.gpugen.spec.yaml.Suggest;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code gpugen explain RULE}: what a rule checks, why, and how to fix a finding. */
@Command(
    modelTransformer = VerboseOption.Added.class,
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
      List<String[]> rows = new ArrayList<>();
      ReaderRules.all()
          .keySet()
          .forEach(rid -> rows.add(new String[] {rid, "error", ReaderRules.summary(rid).get()}));
      for (Rule r : Rules.all()) {
        rows.add(new String[] {r.id(), r.defaultSeverity().label(), r.summary()});
      }
      int idWidth = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
      int severityWidth = rows.stream().mapToInt(r -> r[1].length()).max().orElse(0);
      for (String[] r : rows) {
        out.println(
            String.format("%-" + idWidth + "s  %-" + severityWidth + "s  %s", r[0], r[1], r[2]));
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
      out.println(id + " (error): " + ReaderRules.summary(id).get());
      out.println();
      out.println(ReaderRules.doc(id).get());
    } else {
      List<String> ids = new ArrayList<>(ReaderRules.all().keySet());
      Rules.all().forEach(r -> ids.add(r.id()));
      String near = Suggest.closest(id, ids);
      spec.commandLine()
          .getErr()
          .println(
              "gpugen: no rule "
                  + Printable.text(id)
                  + (near == null ? "" : "; did you mean " + near + "?")
                  + " (gpugen explain lists them)");
      return ExitCodes.USAGE;
    }
    out.flush();
    return ExitCodes.OK;
  }
}
