package dev.gpugen.lint.rules.conn;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** A jump host is an SSH thing; Session Manager reaches the nodes without one. */
public final class ConnBastionWithSsm extends Rule {
  public ConnBastionWithSsm() {
    super(
        "conn-bastion-with-ssm",
        Severity.ERROR,
        "ansible.bastion with the SSM connection: a jump host only works for SSH",
        "ansible.bastion becomes ssh's ProxyJump for every node. With ansible.connection: ssm"
            + " (the default when network.sshIngressCidrs is empty) Ansible opens each session"
            + " through the Systems Manager API with community.aws.aws_ssm, which no jump host"
            + " is on the way of, so the bastion would be silently ignored. Write"
            + " ansible.connection: ssh (and let the bastion's address reach port 22 through"
            + " network.sshIngressCidrs), or remove ansible.bastion. Sources:"
            + " https://man.openbsd.org/ssh_config#ProxyJump ,"
            + " https://docs.ansible.com/ansible/latest/collections/community/aws/aws_ssm_connection.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    if (plan.aws()
        && plan.spec().connection().ssm()
        && plan.spec().connection().bastion().isPresent()) {
      findings.report(
          SpecPath.of("ansible", "bastion"),
          "ansible.bastion is set, but the connection is ssm: Session Manager uses no jump host",
          "write ansible.connection: ssh, or remove ansible.bastion");
    }
  }
}
