package dev.gpugen.lint.rules.conn;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** ansible.connection and ansible.bastion shape gpugen-inventory, which only EC2 clusters use. */
public final class ConnSettingIgnored extends Rule {
  public ConnSettingIgnored() {
    super(
        "conn-setting-ignored",
        Severity.WARNING,
        "ansible.connection or ansible.bastion on a provider whose inventory does not read them",
        "The connection settings become the connection variables gpugen-inventory gives every"
            + " EC2 node (community.aws.aws_ssm, or ssh with ProxyJump). Static hosts are reached"
            + " over SSH as inventory.yml and each host's vars say (ansible_user, ansible_port,"
            + " ansible_ssh_private_key_file), and on GKE the plays run on the controller against"
            + " the Kubernetes API, so both keys change nothing there. Remove them. Source:"
            + " https://docs.ansible.com/ansible/latest/inventory_guide/intro_inventory.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    if (plan.aws()) {
      return;
    }
    for (String key : new String[] {"connection", "bastion"}) {
      SpecPath path = SpecPath.of("ansible", key);
      if (findings.isWritten(path)) {
        findings.report(
            path,
            "ansible." + key + " does nothing with cloud.provider " + plan.provider(),
            "remove ansible." + key);
      }
    }
  }
}
