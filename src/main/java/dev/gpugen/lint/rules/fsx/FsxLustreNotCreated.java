package dev.gpugen.lint.rules.fsx;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** storage.lustre is an FSx for Lustre file system, which only the AWS Terraform creates. */
public final class FsxLustreNotCreated extends Rule {
  public FsxLustreNotCreated() {
    super(
        "fsx-lustre-not-created",
        Severity.WARNING,
        "storage.lustre on a provider where gpugen creates and mounts no file system",
        "On EC2 (cloud.provider: aws) the Terraform creates the FSx for Lustre file system and"
            + " play 00 mounts it on every node at storage.lustre.mountPoint. Static hosts get no"
            + " Terraform, and on GKE the Terraform creates no FSx file system, so the section"
            + " changes nothing there: no file system, no Lustre client, no mount. Remove"
            + " storage.lustre, or mount your own Lustre file system with a role of your own."
            + " Source: https://docs.aws.amazon.com/fsx/latest/LustreGuide/what-is.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    if (plan.aws() || plan.spec().storage().lustre().isEmpty()) {
      return;
    }
    findings.report(
        SpecPath.of("storage", "lustre"),
        "storage.lustre does nothing with cloud.provider "
            + plan.provider()
            + ": no FSx for Lustre file system is created or mounted",
        "remove storage.lustre");
  }
}
