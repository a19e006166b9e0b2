package dev.gpugen.lint.rules.pull;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** Pull mode boots nodes with EC2 user data; only AWS nodes have it here. */
public final class PullUnsupportedProvider extends Rule {
  public PullUnsupportedProvider() {
    super(
        "pull-unsupported-provider",
        Severity.ERROR,
        "pull mode on a provider that does not boot nodes from gpugen's Terraform",
        "Pull mode puts a cloud-init script in each pool's EC2 launch template, so it needs"
            + " cloud.provider: aws. Static hosts are installed already and have no user data"
            + " that gpugen controls: run the playbooks from a controller (push), or run"
            + " ansible-playbook -c local on each host yourself. GKE nodes are configured by GKE,"
            + " the node pools' Terraform and the GPU operator, not by the Ansible roles, so"
            + " there is nothing to pull."
            + " Sources: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/user-data.html ,"
            + " https://cloudinit.readthedocs.io/en/latest/reference/modules.html#scripts-per-boot");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    Provider provider = spec.cloud().provider();
    if (spec.ansible().pullMode() && provider != Provider.AWS) {
      findings.report(
          SpecPath.of("ansible", "mode"),
          "ansible.mode pull needs cloud.provider aws (EC2 user data); "
              + (provider == Provider.STATIC
                  ? "static hosts boot without gpugen"
                  : "GKE nodes are configured by GKE and the GPU operator"),
          provider == Provider.STATIC
              ? "use ansible.mode: push, or run ansible-playbook -c local on each host"
              : "remove ansible.mode: pull");
    }
  }
}
