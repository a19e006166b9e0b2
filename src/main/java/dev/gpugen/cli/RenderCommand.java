package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.render.RenderException;
import dev.gpugen.render.RenderedTree;
import dev.gpugen.render.Templates;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.write.TreeWriter;
import dev.gpugen.write.WriteException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gpugen render SPEC}: validate, render in memory, then write (or compare with --check). */
@Command(
    name = "render",
    mixinStandardHelpOptions = true,
    description = {
      "Validate a spec and render its Terraform and Ansible into a folder.",
      "Nothing is written when the spec has errors; files gpugen did not write are never touched."
    })
final class RenderCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SPEC", description = "The cluster spec.")
  Path file;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "DIR",
      description = "Output folder (default: roles-generated/<name>, or <name>-<env> with --env).")
  Path output;

  @Option(
      names = "--check",
      description = "Write nothing; print a diff and exit 1 when the folder is not up to date.")
  boolean check;

  @Option(
      names = "--templates",
      paramLabel = "DIR",
      description = "Override built-in templates file by file from DIR.")
  Path templates;

  @Option(
      names = "--force",
      description = "Write into a folder gpugen did not create, or over hand-edited files.")
  boolean force;

  @Mixin SpecOptions options;

  @Override
  public Integer call() throws GpugenException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Gpugen gpugen = Knowledge.gpugen();
    Gpugen.Checked checked = options.check(gpugen, file);
    if (!checked.diagnostics().isEmpty()) {
      DiagnosticPrinter.text(err, checked);
    }
    if (options.fails(checked)) {
      err.println(
          file + ": " + DiagnosticPrinter.summary(checked.diagnostics()) + "; nothing rendered");
      return ExitCodes.INVALID;
    }
    ClusterSpec cluster = checked.spec().orElseThrow();
    Path dir = output != null ? output : defaultDir(cluster);
    String label =
        dir.toAbsolutePath()
            .normalize()
            .relativize(file.toAbsolutePath().normalize())
            .toString()
            .replace('\\', '/');
    RenderedTree tree;
    try {
      tree = gpugen.render(cluster, Templates.load(Optional.ofNullable(templates)), label);
    } catch (RenderException e) {
      throw new GpugenException(ExitCodes.INTERNAL, "render failed: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new GpugenException(ExitCodes.ENVIRONMENT, e.getMessage(), e);
    }
    try {
      if (check) {
        String diff = TreeWriter.check(dir, tree);
        if (!diff.isEmpty()) {
          out.print(diff);
          out.flush();
          err.println(
              dir + " is stale against " + file + "; run: gpugen render " + file + renderArgs());
          return ExitCodes.INVALID;
        }
        out.println(dir + " is up to date (" + tree.files().size() + " files)");
        return ExitCodes.OK;
      }
      TreeWriter.Summary s = TreeWriter.write(dir, tree, force);
      out.println(
          "rendered "
              + dir
              + ": "
              + s.written()
              + " written, "
              + s.unchanged()
              + " unchanged, "
              + s.deleted()
              + " deleted");
      return ExitCodes.OK;
    } catch (WriteException e) {
      throw new GpugenException(
          e.refused() ? ExitCodes.INVALID : ExitCodes.ENVIRONMENT, e.getMessage(), e);
    }
  }

  private String renderArgs() {
    StringBuilder b = new StringBuilder();
    if (output != null) {
      b.append(" -o ").append(output);
    }
    if (options.env != null) {
      b.append(" --env ").append(options.env);
    }
    return b.toString();
  }

  private static Path defaultDir(ClusterSpec c) {
    String name = c.metadata().name() + c.selectedEnvironment().map(e -> "-" + e).orElse("");
    return Path.of("roles-generated", name);
  }
}
