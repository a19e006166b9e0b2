package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.json.Json;
import dev.gpugen.plan.PlanView;
import dev.gpugen.spec.Printable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gpugen plan SPEC}: the resolved spec and every fact gpugen derives from it (qualified and
 * placement-group names, machine facts, EFA interfaces, driver branch, thresholds, groups, ...),
 * without writing anything: what a key change means before the regenerated files.
 */
@Command(
    modelTransformer = SpecOptions.Added.class,
    name = "plan",
    mixinStandardHelpOptions = true,
    description = {
      "Validate a spec and print what gpugen derives from it: the resolved spec, the cluster's",
      "and every pool's facts (names, machine facts, EFA, driver, thresholds). Writes nothing."
    })
final class PlanCommand implements Callable<Integer>, SpecOptions.Holder {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SPEC", description = "The cluster spec.")
  Path file;

  @Option(names = "--json", description = "Print JSON (sorted keys; pools in spec order).")
  boolean json;

  final SpecOptions options = new SpecOptions();

  @Override
  public SpecOptions options() {
    return options;
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Gpugen.Checked checked = options.check(Knowledge.gpugen(), file);
    if (options.printFails(err, file, checked, "no plan")) {
      return ExitCodes.INVALID;
    }
    Map<String, Object> view = PlanView.of(checked.plan().orElseThrow());
    if (json) {
      out.println(Json.writeAscii(view));
    } else {
      text(out, view, "");
    }
    out.flush();
    err.flush();
    return ExitCodes.OK;
  }

  /** The same data indented, one key a line; list items numbered from 0 as JSON indexes them. */
  private static void text(PrintWriter out, Object v, String indent) {
    if (v instanceof Map<?, ?> m) {
      m.forEach(
          (k, x) -> {
            if (scalar(x)) {
              out.println(indent + Printable.text(k.toString()) + ": " + scalarText(x));
            } else {
              out.println(indent + Printable.text(k.toString()) + ":");
              text(out, x, indent + "  ");
            }
          });
    } else if (v instanceof List<?> l) {
      for (int i = 0; i < l.size(); i++) {
        Object x = l.get(i);
        if (scalar(x)) {
          out.println(indent + "[" + i + "] " + scalarText(x));
        } else {
          out.println(indent + "[" + i + "]");
          text(out, x, indent + "  ");
        }
      }
    }
  }

  private static boolean scalar(Object x) {
    return !(x instanceof Map<?, ?> m && !m.isEmpty()) && !(x instanceof List<?> l && !l.isEmpty());
  }

  private static String scalarText(Object x) {
    if (x instanceof Map<?, ?>) {
      return "{}";
    } else if (x instanceof List<?>) {
      return "[]";
    } else if (x == null) {
      return "-";
    } else if (x instanceof String s) {
      return s.isEmpty() || s.contains("\n") ? Json.writeAscii(s) : Printable.text(s);
    }
    return x.toString();
  }
}
