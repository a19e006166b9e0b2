package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.NodeSettings;
import dev.gpugen.render.RenderedTree;
import dev.gpugen.spec.Printable;
import dev.gpugen.write.Manifest;
import dev.gpugen.write.TreeWriter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gpugen up SPEC}: render, {@code terraform init} and {@code apply}, wait for the nodes,
 * then the collections and the playbook, each command printed before it runs.
 */
@Command(
    modelTransformer = SpecOptions.Added.class,
    name = "up",
    sortOptions = false,
    mixinStandardHelpOptions = true,
    description = {
      "Render the spec, then run what its next steps list: ansible-galaxy collection install in"
          + " the render's ansible/ folder, terraform init and apply in its terraform/ folder, the"
          + " cluster's kubeconfig (EKS, GKE), a wait until every node is running (EC2) and"
          + " answers (ansible wait_for_connection), each printing its progress per pool at"
          + " least every 30 s, and ansible-playbook site.yml.",
      "After a render that changed software.driver the playbook is upgrade-driver.yml instead (a"
          + " batch of nodes at a time; site.yml never replaces a loaded driver): the folder's"
          + " manifest keeps the upgrade pending, through later renders, until an up has run it"
          + " to its end.",
      "Before the first step it checks everything the run needs and lists every problem at"
          + " once: the tools (with SSM also session-manager-plugin and boto3; on GKE gcloud and"
          + " gke-gcloud-auth-plugin), credentials that answer, and on AWS the account's EC2 vCPU"
          + " quotas against what the spec needs.",
      "Each command is printed before it runs; the first that fails stops the run. Every step is"
          + " idempotent, so running up again picks up where it stopped."
    },
    footer = {
      "",
      "Exit codes: 0 deployed; 1 invalid spec or a refused render; 2 usage, or the folder belongs"
          + " to another spec; 3 a check before the first step failed (nothing run); 4 internal;"
          + " 5 a step failed, the wait for the nodes included (the message names the step and"
          + " the tool's own exit code)."
    })
final class UpCommand implements Callable<Integer>, SpecOptions.Holder {
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

  @Option(
      names = "--allow-replace",
      description =
          "Render with gpugen render --allow-replace and apply with -replace of every pool's"
              + " recorded node settings (terraform_data.recorded_node_settings): a change of node"
              + " settings (instance type, fabric, image, key pair, market, placement, zone, ...)"
              + " may replace the nodes of the pools it concerns, and the state records the new"
              + " settings. Without it such a plan is refused before anything changes.")
  boolean allowReplace;

  @Option(
      names = "--force",
      description =
          "Render into a folder another spec rendered (its Terraform state becomes this spec's),"
              + " or over hand-edited files.")
  boolean force;

  final SpecOptions options = new SpecOptions();

  @Override
  public SpecOptions options() {
    return options;
  }

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
    if (options.printFails(err, file, checked, "nothing run")) {
      return ExitCodes.INVALID;
    }
    ClusterPlan unkept = checked.plan().orElseThrow();
    Path folder = output != null ? output : Path.of(unkept.spec().outputFolder());
    Impact.Kept kept = Impact.kept(folder, unkept, allowReplace);
    ClusterPlan plan = kept.plan();
    java.util.SortedMap<String, java.util.SortedMap<String, Object>> accepted = kept.accepted();
    java.util.SortedMap<String, java.util.SortedMap<String, Object>> allowed = kept.allowed();
    Manifest.Source source = Impact.source(folder, file, plan, accepted, allowed);
    // Another spec's folder holds another cluster's state: refused before any check runs.
    TreeWriter.checkOwner(folder, source, force);
    // The apply re-records in state (terraform apply -replace of
    // terraform_data.recorded_node_settings) the settings of every pool whose current ones are
    // allowed: all with --allow-replace, else those an earlier --allow-replace into this folder
    // accepted, so the record never stays behind the nodes a plain render's apply replaced.
    List<Deploy.Step> steps =
        Deploy.up(
            plan,
            folder,
            autoApprove,
            source.driverUpgradePending(),
            allowReplace
                ? NodeSettings.recordAddresses(plan)
                : NodeSettings.recordAddresses(plan, allowed));
    Preflight.Result checks = Preflight.check(plan, steps, context, true);
    if (!Preflight.report("gpugen up", checks, err)) {
      return ExitCodes.ENVIRONMENT;
    }
    RenderedTree tree =
        gpugen.render(plan, Warmup.builtInTemplates(), Impact.label(folder, file), allowed);
    TreeWriter.Summary s = TreeWriter.write(folder, tree, Optional.of(source), force);
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
    Impact.print(out, s.previous(), plan);
    Impact.printReplacement(out, accepted, plan, allowReplace, s.previous());
    int code = Deploy.run("gpugen up", steps, checks.tools(), plan, folder, context, out, err);
    if (code == ExitCodes.OK) {
      if (source.driverUpgradePending()) {
        // upgrade-driver.yml ran to its end: the next up runs site.yml again.
        TreeWriter.driverUpgradeDone(folder);
      }
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
