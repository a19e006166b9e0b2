package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.failure.Failure;
import dev.gpugen.spec.Printable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gpugen validate SPEC...}: every finding of every file, then a summary; no output files.
 */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    description = "Check specs: YAML, the v1 grammar, and the GPU-stack lint rules.")
final class ValidateCommand implements Callable<Integer> {
  enum Format {
    text,
    json,
    sarif
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "SPEC", description = "Spec files to check.")
  List<Path> files;

  @Option(
      names = "--format",
      description = "text (default), json, or sarif (SARIF 2.1.0 for GitHub code scanning).")
  Format format = Format.text;

  @Mixin SpecOptions options;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Gpugen gpugen = Knowledge.gpugen();
    List<Gpugen.Checked> all = new ArrayList<>();
    boolean failed = false;
    int unreadable = ExitCodes.OK;
    for (Path f : files) {
      Gpugen.Checked c;
      try {
        c = options.check(gpugen, f);
      } catch (Failure e) {
        // One unreadable file must not hide the findings of the others (pre-commit passes many).
        PrintWriter err = spec.commandLine().getErr();
        err.println("gpugen: " + Printable.text(e.getMessage()));
        err.flush();
        unreadable = Math.max(unreadable, ExitCodes.of(e));
        continue;
      }
      all.add(c);
      failed |= options.fails(c);
      if (format == Format.text) {
        DiagnosticPrinter.text(out, c);
        out.println(
            Printable.text(f.toString()) + ": " + DiagnosticPrinter.summary(c.diagnostics()));
      }
    }
    if (format == Format.json) {
      DiagnosticPrinter.json(out, all);
    } else if (format == Format.sarif) {
      SarifPrinter.print(
          out, all, new GpugenCommand.Version().getVersion()[0].replace("gpugen ", ""));
    }
    out.flush();
    return Math.max(unreadable, failed ? ExitCodes.INVALID : ExitCodes.OK);
  }
}
