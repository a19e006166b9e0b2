package dev.gpugen.cli;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.EndpointAccess;
import dev.gpugen.spec.Printable;
import dev.gpugen.spec.ShellCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What to run after {@code gpugen render}, for this spec: the credentials it needs, Terraform in
 * the render's folder, the Ansible collections, the playbook. Printed after a single render unless
 * {@code --quiet}; {@code gpugen up} runs the same steps.
 */
final class NextSteps {
  private NextSteps() {}

  /** How the render was asked for: the folder only when {@code -o} named it; any --templates. */
  record Invocation(Path spec, Optional<Path> output, boolean customTemplates) {
    static Invocation of(Path spec) {
      return new Invocation(spec, Optional.empty(), false);
    }
  }

  static String of(ClusterPlan plan, Path spec, Path folder) {
    return of(plan, Invocation.of(spec), folder, false);
  }

  /**
   * The steps; with {@code driverUpgrade} (the re-render changed a driver) the playbook step is the
   * rolling {@code upgrade-driver.yml}, since {@code site.yml} never replaces a loaded driver. Each
   * step runs from the folder the user is in (the ones that need the ansible folder in a subshell),
   * so the steps work typed one after another or alone.
   */
  static String of(ClusterPlan plan, Invocation how, Path folder, boolean driverUpgrade) {
    ClusterSpec s = plan.spec();
    String playbook = driverUpgrade ? "upgrade-driver.yml" : "site.yml";
    String upgradeNote =
        driverUpgrade
            ? "   (the driver changed: a batch of nodes at a time; site.yml never replaces a loaded"
                + " driver)"
            : "";
    String tf = folder.resolve("terraform").toString();
    String ansible = folder.resolve("ansible").toString();
    List<String> up =
        new ArrayList<>(List.of("gpugen", "up", ShellCommand.path(how.spec().toString())));
    s.selectedEnvironment().ifPresent(e -> up.addAll(List.of("--env", e)));
    // The same folder as this render: without -o, gpugen up would render into the default one.
    how.output().ifPresent(o -> up.addAll(List.of("-o", ShellCommand.path(o.toString()))));
    // Every command below is for pasting: its words are quoted for the shell.
    String init = ShellCommand.of("terraform", "-chdir=" + tf, "init");
    String apply = ShellCommand.of("terraform", "-chdir=" + tf, "apply");
    String galaxy =
        inAnsible(
            ansible,
            ShellCommand.of("ansible-galaxy", "collection", "install", "-r", "requirements.yml"));
    String upLine = ShellCommand.of(up);
    StringBuilder b = new StringBuilder("\nNext steps:\n");
    int n = 1;
    if (plan.aws()) {
      b.append("  ")
          .append(n++)
          .append(". AWS credentials for ")
          .append(Printable.text(s.cloud().region().orElse("the region")))
          .append(
              " (aws sso login, AWS_PROFILE or keys; terraform and gpugen-inventory read them)\n");
      // The collections first, as gpugen up does: a Galaxy failure then leaves nothing billing.
      b.append("  ").append(n++).append(". ").append(galaxy).append('\n');
      b.append("  ").append(n++).append(". ").append(init).append('\n');
      b.append("  ").append(n++).append(". ").append(apply).append('\n');
      Optional<Deploy.Run> kubeconfig = Deploy.kubeconfig(plan, folder);
      if (kubeconfig.isPresent()) {
        b.append("  ")
            .append(n++)
            .append(". ")
            .append(kubeconfig.get().shown())
            .append("   (the EKS cluster's kubeconfig, for plays 03-05 and kubectl)\n");
      }
      if (plan.pullMode()) {
        b.append(
                "     the nodes configure themselves at boot; failures: aws ec2 describe-instances")
            .append(" --filters Name=tag:gpugen:validation,Values=failed\n");
      }
      b.append("  ")
          .append(n++)
          .append(". ")
          .append(
              inAnsible(
                  ansible, ShellCommand.of("ansible-playbook", "-i", "gpugen-inventory", playbook)))
          .append(driverUpgrade ? upgradeNote : "   (gpugen on PATH, or GPUGEN_JAR set)")
          .append('\n');
      if (privateEndpoint(s)) {
        b.append(
                "     the EKS API endpoint is private: run plays 03-05 (and kubectl) from a machine")
            .append(" in the VPC (the bastion, an instance reached with SSM, or over a VPN);")
            .append(" from outside, the Kubernetes API does not answer\n");
      }
      if (plan.ssmConnection()) {
        b.append("     connection ssm: the AWS CLI, AWS's session-manager-plugin and boto3 on this")
            .append(" machine\n");
      } else {
        b.append("     connection ssh: the private key of ")
            .append(
                Printable.text(
                    s.cloud().sshKeyName().map(k -> "key pair " + k).orElse("the nodes' key pair")))
            .append(" in ssh-agent")
            .append(
                Printable.text(
                    s.connection().bastion().map(h -> ", through " + h.proxyJump()).orElse("")))
            .append('\n');
      }
      b.append(orUp("Or all of it, with a wait for the nodes: ", upLine, how));
    } else if (plan.gke()) {
      b.append("  ")
          .append(n++)
          .append(". Google credentials: gcloud auth application-default login\n");
      b.append("  ").append(n++).append(". ").append(galaxy).append('\n');
      b.append("  ").append(n++).append(". ").append(init).append('\n');
      b.append("  ").append(n++).append(". ").append(apply).append('\n');
      b.append("  ")
          .append(n++)
          .append(". ")
          .append(inAnsible(ansible, ShellCommand.of("ansible-playbook", "site.yml")))
          .append("   (the cluster's kubeconfig: gcloud container clusters get-credentials)\n");
      b.append(orUp("Or all of it: ", upLine, how));
    } else {
      b.append("  ").append(n++).append(". ").append(galaxy).append('\n');
      b.append("  ")
          .append(n++)
          .append(". ")
          .append(inAnsible(ansible, ShellCommand.of("ansible-playbook", playbook)))
          .append(driverUpgrade ? upgradeNote : "   (SSH to every host of inventory.yml)")
          .append('\n');
      b.append(orUp("Or: ", upLine, how));
    }
    return b.toString();
  }

  /**
   * The line offering {@code gpugen up}. It renders with the built-in templates, so after a render
   * with --templates it would replace this render's files: then it is not offered.
   */
  private static String orUp(String lead, String upLine, Invocation how) {
    return how.customTemplates()
        ? "gpugen up renders with the built-in templates, not --templates: run the steps above\n"
        : lead + upLine + "\n";
  }

  /**
   * {@code command} run in the ansible folder, in a subshell: the user's folder stays as it was.
   */
  private static String inAnsible(String ansible, String command) {
    return "(" + ShellCommand.of("cd", ShellCommand.path(ansible)) + " && " + command + ")";
  }

  /** EKS with only the private endpoint: the API answers inside the VPC only. */
  static boolean privateEndpoint(ClusterSpec s) {
    return s.kubernetes()
        .filter(k -> k.eks() && k.endpointAccess() == EndpointAccess.PRIVATE)
        .isPresent();
  }
}
