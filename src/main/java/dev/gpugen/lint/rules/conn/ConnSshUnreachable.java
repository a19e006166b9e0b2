package dev.gpugen.lint.rules.conn;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** SSH to nodes whose security group lets no one reach port 22. */
public final class ConnSshUnreachable extends Rule {
  public ConnSshUnreachable() {
    super(
        "conn-ssh-unreachable",
        Severity.ERROR,
        "ansible.connection: ssh, but network.sshIngressCidrs lets no address reach port 22",
        "The node security group opens TCP 22 only to network.sshIngressCidrs; with none, every"
            + " SSH connection from the controller (or from a bastion) times out and the first"
            + " play fails on every host. List the controller's or the bastion's address range"
            + " in network.sshIngressCidrs, or use ansible.connection: ssm (Session Manager needs"
            + " no open port). Source:"
            + " https://docs.aws.amazon.com/vpc/latest/userguide/vpc-security-groups.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    if (plan.aws()
        && !plan.spec().ansible().pullMode()
        && !plan.spec().connection().ssm()
        && plan.spec().network().sshIngressCidrs().isEmpty()) {
      findings.report(
          SpecPath.of("ansible", "connection"),
          "ansible.connection: ssh, but no network.sshIngressCidrs may reach port 22",
          "add the controller's (or bastion's) CIDR to network.sshIngressCidrs, or use"
              + " connection: ssm");
    }
  }
}
