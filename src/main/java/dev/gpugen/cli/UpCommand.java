package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.render.RenderedTree;
import dev.gpugen.render.Templates;
import dev.gpugen.spec.Printable;
import dev.gpugen.write.TreeWriter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gpugen up SPEC}: render, {@code terraform init} and {@code apply}, wait for the nodes,
 * then the collections and the playbook, each command printed before it runs.
 */
@Command(
    name = "up",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Render the spec, then run what its next steps list: terraform init and apply in the"
          + " render's terraform/ folder, a wait until every node is running (EC2, with N/M nodes"
          + " ready on stderr) and reachable (ansible wait_for_connection), ansible-galaxy"
          + " collection install and ansible-playbook site.yml in its ansible/ folder.",
      "Each command is printed before it runs; the first that fails stops the run with its exit"
          + " code. Every step is idempotent, so running up again picks up where it stopped."
    },
    footer = {
      "",
      "Exit codes: 0 deployed; a failed step's own exit code; 1 invalid spec or a refused"
          + " render; 2 usage; 3 a tool missing (nothing run), EC2 unreachable or the nodes not"
          + " ready in time; 4 internal."
    })
final class UpCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SPEC", description = "The cluster spec.")
  Path file;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "DIR",
      description = "The render's folder (default: roles-generated/<name>[-<env>]).")
  Path output;

  @Option(names = "--auto-approve", description = "Apply without Terraform's confirmation prompt.")
  boolean autoApprove;

  @Mixin SpecOptions options;

  private final Deploy.Context context;

  UpCommand() {
    this(Deploy.Context.system());
  }

  UpCommand(Deploy.Context context) {
    this.context = Objects.requireNonNull(context, "context");
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    UsageErrors.requirePasteable(spec.commandLine(), "SPEC", file);
    UsageErrors.requirePasteable(spec.commandLine(), "-o", output);
    Gpugen gpugen = Knowledge.gpugen();
    Gpugen.Checked checked = options.check(gpugen, file);
    if (!checked.diagnostics().isEmpty()) {
      DiagnosticPrinter.text(err, checked);
    }
    if (options.fails(checked)) {
      err.println(
          Printable.text(file.toString())
              + ": "
              + DiagnosticPrinter.summary(checked.diagnostics())
              + "; nothing run");
      err.flush();
      return ExitCodes.INVALID;
    }
    ClusterPlan plan = checked.plan().orElseThrow();
    Path folder = output != null ? output : Path.of(plan.spec().outputFolder());
    List<Deploy.Step> steps = Deploy.up(plan, folder, autoApprove);
    Map<String, Path> tools = Deploy.tools(steps, context, "gpugen up");

    String label =
        folder
            .toAbsolutePath()
            .normalize()
            .relativize(file.toAbsolutePath().normalize())
            .toString()
            .replace('\\', '/');
    {
      RenderedTree tree = gpugen.render(plan, Templates.load(Optional.empty()), label);
      TreeWriter.Summary s = TreeWriter.write(folder, tree, false);
      out.println(
          "rendered "
              + Printable.text(folder.toString())
              + ": "
              + s.written()
              + " written, "
              + s.unchanged()
              + " unchanged, "
              + s.deleted()
              + " deleted");
      out.flush();
    }
    int code = Deploy.run("gpugen up", steps, tools, plan, folder, context, out, err);
    if (code == ExitCodes.OK) {
      err.println(
          "gpugen up: done"
              + (plan.pullMode()
                  ? "; the nodes configure themselves now (their gpugen:validation tag says how it"
                      + " went)"
                  : ""));
      err.flush();
    }
    return code;
  }
}
