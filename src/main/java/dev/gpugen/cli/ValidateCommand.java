package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.failure.Failure;
import dev.gpugen.spec.Printable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code gpugen validate SPEC...}: every finding of every file, then a summary; no output files.
 */
final class ValidateCommand implements Callable<Integer> {
  enum Format {
    text,
    json,
    sarif
  }

  final CommandSpec spec =
      CliModel.command(
          this, "validate", "Check specs: YAML, the v1 grammar, and the GPU-stack lint rules.");
  List<Path> files;
  Format format = Format.text;
  final SpecOptions options = new SpecOptions();

  ValidateCommand() {
    spec.addPositional(CliModel.paths(v -> files = v, "SPEC", "Spec files to check."));
    spec.addOption(
        CliModel.option(
            Format.class,
            Format.text,
            v -> format = v,
            "<format>",
            "text (default), json, or sarif (SARIF 2.1.0 for GitHub code scanning).",
            "--format"));
    options.addTo(spec);
  }

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
