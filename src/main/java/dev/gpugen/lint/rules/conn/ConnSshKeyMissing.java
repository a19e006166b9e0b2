package dev.gpugen.lint.rules.conn;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** SSH to EC2 nodes launched without a key pair: no key is authorized, every login fails. */
public final class ConnSshKeyMissing extends Rule {
  public ConnSshKeyMissing() {
    super(
        "conn-ssh-key-missing",
        Severity.ERROR,
        "ansible.connection: ssh on AWS, but no cloud.sshKeyName",
        "EC2 puts a key pair's public key into the login user's authorized_keys at launch; Ubuntu"
            + " images have no password and no other key, so without cloud.sshKeyName every SSH"
            + " login from the controller fails (\"Permission denied (publickey)\") after the"
            + " instances are created. Name an existing EC2 key pair in cloud.sshKeyName, or use"
            + " ansible.connection: ssm (Session Manager needs no key). An image that authorizes"
            + " a key itself can skip this rule (lint.skip). Sources:"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-key-pairs.html ,"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/connect-linux-inst-ssh.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    if (plan.aws()
        && !plan.spec().ansible().pullMode()
        && !plan.spec().connection().ssm()
        && plan.spec().cloud().sshKeyName().isEmpty()) {
      findings.report(
          SpecPath.of("ansible", "connection"),
          "Ansible connects over SSH, but the instances get no key pair (cloud.sshKeyName is not"
              + " set): every login fails",
          "set cloud.sshKeyName to an EC2 key pair in "
              + plan.spec().cloud().region().orElse("the region")
              + ", or use ansible.connection: ssm");
    }
  }
}
