package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.InvalidInput;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Printable;
import dev.gpugen.write.TreeWriter;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gpugen down SPEC}: terraform destroy in the render's folder, with Terraform's prompt. */
@Command(
    modelTransformer = SpecOptions.Added.class,
    name = "down",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Destroy what gpugen up created: terraform init and destroy in the render's terraform/"
          + " folder, each printed before it runs. Terraform lists what it will destroy and asks"
          + " for yes unless --auto-approve. The folder is not re-rendered."
    },
    footer = {
      "",
      "Exit codes: 0 destroyed; 1 invalid spec; 2 usage (static hosts have nothing to destroy, or"
          + " the folder belongs to another spec); 3 no render, or terraform missing; 4 internal;"
          + " 5 a step failed (the message names the tool's own exit code)."
    })
final class DownCommand implements Callable<Integer>, SpecOptions.Holder {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SPEC", description = "The cluster spec.")
  Path file;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "DIR",
      description = "The render's folder (default: roles-generated/<name>[-<env>]).")
  Path output;

  @Option(names = "--auto-approve", description = "Destroy without Terraform's prompt.")
  boolean autoApprove;

  @Option(
      names = "--force",
      description = "Destroy even when the folder's manifest names another spec as its owner.")
  boolean force;

  final SpecOptions options = new SpecOptions();

  @Override
  public SpecOptions options() {
    return options;
  }

  private final Deploy.Context context;

  DownCommand() {
    this(Deploy.Context.system());
  }

  DownCommand(Deploy.Context context) {
    this.context = Objects.requireNonNull(context, "context");
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    UsageErrors.requirePasteable(spec.commandLine(), "SPEC", file);
    UsageErrors.requirePasteable(spec.commandLine(), "-o", output);
    Gpugen.Checked checked = options.check(Knowledge.gpugen(), file);
    if (checked.plan().isEmpty()) {
      DiagnosticPrinter.text(err, checked);
      err.println(
          Printable.text(file.toString())
              + ": "
              + DiagnosticPrinter.summary(checked.diagnostics())
              + "; nothing run");
      err.flush();
      return ExitCodes.INVALID;
    }
    ClusterPlan plan = checked.plan().get();
    if (plan.staticHosts()) {
      throw InvalidInput.usage(
          "gpugen down: " + file + " lists static hosts; gpugen created nothing to destroy");
    }
    Path folder = output != null ? output : Path.of(plan.spec().outputFolder());
    if (!Files.isDirectory(folder.resolve("terraform"))) {
      throw new EnvironmentFailure(
          "gpugen down: no render at "
              + folder.resolve("terraform")
              + " (its Terraform state is what down destroys); pass -o DIR if it is elsewhere");
    }
    // The state in the folder is the cluster of the spec that rendered it: another spec with the
    // same metadata.name must not destroy it.
    TreeWriter.checkOwner(folder, Impact.source(folder, file, plan), force);
    List<String> targets = plan.downTargets();
    if (!targets.isEmpty()) {
      err.println(
          "gpugen down: storage.retain keeps the FSx file system and the checkpoint bucket, and"
              + " the network they live in; the nodes are destroyed. What is kept still bills"
              + " (FSx for Lustre by its provisioned capacity, S3 by what it stores)");
      err.flush();
    }
    List<Deploy.Step> steps = Deploy.down(folder, autoApprove, targets);
    Map<String, Path> tools = Deploy.tools(steps, context, "gpugen down");
    int code = Deploy.run("gpugen down", steps, tools, plan, folder, context, out, err);
    if (code == ExitCodes.OK) {
      err.println(
          targets.isEmpty()
              ? "gpugen down: done"
              : "gpugen down: done; the retained data and its network remain, and still bill."
                  + " To delete them once the data is saved elsewhere: storage.retain: false,"
                  + " gpugen render, terraform apply, gpugen down");
      err.flush();
    }
    return code;
  }
}
