package dev.gpugen.lint.rules.net;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Internet;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** An air-gapped node in pull mode cannot install Ansible at boot: its image must bring it. */
public final class NetAirGappedStockImage extends Rule {
  public NetAirGappedStockImage() {
    super(
        "net-air-gapped-stock-image",
        Severity.ERROR,
        "network.internet: none in pull mode with Canonical's image: the nodes cannot install"
            + " Ansible at boot",
        "In pull mode each node applies its bundle itself. On an image without ansible-playbook"
            + " (Canonical's Ubuntu server images have none) the user data installs ansible-core"
            + " from PyPI, the collections of requirements.yml from Ansible Galaxy and the AWS CLI"
            + " from the Snap Store before it runs play 00, and none of them is reachable from an"
            + " air-gapped VPC, so every node fails at its first boot. Build an image that has"
            + " ansible-core, the collections and the AWS CLI (from this render, for example with"
            + " Packer and ansible-galaxy collection install -r ansible/requirements.yml) and set"
            + " cloud.image to its ami- id. Sources:"
            + " https://docs.ansible.com/ansible/latest/installation_guide/intro_installation.html ,"
            + " https://docs.aws.amazon.com/cli/latest/userguide/getting-started-install.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    if (spec.cloud().provider() == Provider.AWS
        && spec.network().internet() == Internet.NONE
        && spec.ansible().pullMode()
        && !spec.cloud().image().startsWith("ami-")) {
      findings.report(
          SpecPath.of("cloud", "image"),
          "cloud.image "
              + spec.cloud().image()
              + " is Canonical's image, which has no Ansible, and an air-gapped node cannot"
              + " install it at boot (PyPI, Ansible Galaxy and the Snap Store are outside the VPC)",
          "build an image with ansible-core, the collections of ansible/requirements.yml and the"
              + " AWS CLI, and set cloud.image: ami-...");
    }
  }
}
