package dev.gpugen.cli;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.EndpointAccess;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What to run after {@code gpugen render}, for this spec: the credentials it needs, Terraform in
 * the render's folder, the Ansible collections, the playbook. Printed after a single render unless
 * {@code --quiet}; {@code gpugen up} runs the same steps.
 */
final class NextSteps {
  private NextSteps() {}

  static String of(ClusterPlan plan, Path spec, Path folder) {
    return of(plan, spec, folder, false);
  }

  /**
   * The steps; with {@code driverUpgrade} (the re-render changed a driver) the playbook step is the
   * rolling {@code upgrade-driver.yml}, since {@code site.yml} never replaces a loaded driver.
   */
  static String of(ClusterPlan plan, Path spec, Path folder, boolean driverUpgrade) {
    ClusterSpec s = plan.spec();
    String playbook = driverUpgrade ? "upgrade-driver.yml" : "site.yml";
    String upgradeNote =
        driverUpgrade
            ? "   (the driver changed: a batch of nodes at a time; site.yml never replaces a loaded"
                + " driver)"
            : "";
    String tf = folder.resolve("terraform").toString();
    String ansible = folder.resolve("ansible").toString();
    String env = s.selectedEnvironment().map(e -> " --env " + e).orElse("");
    StringBuilder b = new StringBuilder("\nNext steps:\n");
    int n = 1;
    if (plan.aws()) {
      b.append("  ")
          .append(n++)
          .append(". AWS credentials for ")
          .append(s.cloud().region().orElse("the region"))
          .append(
              " (aws sso login, AWS_PROFILE or keys; terraform and gpugen-inventory read them)\n");
      b.append("  ").append(n++).append(". terraform -chdir=").append(tf).append(" init\n");
      b.append("  ").append(n++).append(". terraform -chdir=").append(tf).append(" apply\n");
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
          .append(". cd ")
          .append(ansible)
          .append(" && ansible-galaxy collection install -r requirements.yml\n");
      b.append("  ")
          .append(n++)
          .append(". ansible-playbook -i gpugen-inventory ")
          .append(playbook)
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
            .append(s.cloud().sshKeyName().map(k -> "key pair " + k).orElse("the nodes' key pair"))
            .append(" in ssh-agent")
            .append(s.connection().bastion().map(h -> ", through " + h.proxyJump()).orElse(""))
            .append('\n');
      }
      b.append("Or all of it, with a wait for the nodes: gpugen up ")
          .append(spec)
          .append(env)
          .append('\n');
    } else if (plan.gke()) {
      b.append("  ")
          .append(n++)
          .append(". Google credentials: gcloud auth application-default login\n");
      b.append("  ").append(n++).append(". terraform -chdir=").append(tf).append(" init\n");
      b.append("  ").append(n++).append(". terraform -chdir=").append(tf).append(" apply\n");
      b.append("  ")
          .append(n++)
          .append(". cd ")
          .append(ansible)
          .append(" && ansible-galaxy collection install -r requirements.yml\n");
      b.append("  ")
          .append(n++)
          .append(". ansible-playbook site.yml   (the cluster's kubeconfig: gcloud container")
          .append(" clusters get-credentials)\n");
      b.append("Or all of it: gpugen up ").append(spec).append(env).append('\n');
    } else {
      b.append("  ")
          .append(n++)
          .append(". cd ")
          .append(ansible)
          .append(" && ansible-galaxy collection install -r requirements.yml\n");
      b.append("  ")
          .append(n++)
          .append(". ansible-playbook ")
          .append(playbook)
          .append(driverUpgrade ? upgradeNote : "   (SSH to every host of inventory.yml)")
          .append('\n');
      b.append("Or: gpugen up ").append(spec).append(env).append('\n');
    }
    return b.toString();
  }

  /** EKS with only the private endpoint: the API answers inside the VPC only. */
  static boolean privateEndpoint(ClusterSpec s) {
    return s.kubernetes()
        .filter(k -> k.eks() && k.endpointAccess() == EndpointAccess.PRIVATE)
        .isPresent();
  }
}
