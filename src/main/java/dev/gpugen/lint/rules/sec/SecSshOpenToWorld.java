package dev.gpugen.lint.rules.sec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.List;

/** SSH from 0.0.0.0/0 to GPU nodes is how clusters get cryptominers (CKV_AWS_24, AVD-AWS-0107). */
public final class SecSshOpenToWorld extends Rule {
  public SecSshOpenToWorld() {
    super(
        "sec-ssh-open-to-world",
        Severity.WARNING,
        "SSH is open to the whole internet",
        "network.sshIngressCidrs containing 0.0.0.0/0 (or any /0) opens port 22 of every GPU"
            + " node to the internet; scanners find such nodes within minutes. checkov CKV_AWS_24 and"
            + " trivy AVD-AWS-0107 flag it. List your office or bastion CIDRs, or leave the list empty"
            + " and reach the nodes through SSM Session Manager. It is a warning, not an error, because"
            + " a spec may ask for it on purpose (a short-lived lab); run with --fail-on warning in CI"
            + " to refuse it."
            + " Source: https://docs.aws.amazon.com/vpc/latest/userguide/vpc-security-best-practices.html");
  }

  @Override
  public void check(ClusterSpec spec, Findings findings) {
    List<String> cidrs = spec.network().sshIngressCidrs();
    for (int i = 0; i < cidrs.size(); i++) {
      if (cidrs.get(i).endsWith("/0")) {
        findings.report(
            SpecPath.of("network", "sshIngressCidrs", i),
            "network.sshIngressCidrs["
                + i
                + "] "
                + cidrs.get(i)
                + " opens SSH to the whole internet",
            "list the CIDRs of your office or bastion, or use [] and SSM Session Manager");
      }
    }
  }
}
