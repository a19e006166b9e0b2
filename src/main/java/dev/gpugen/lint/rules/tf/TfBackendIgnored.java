package dev.gpugen.lint.rules.tf;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** A Terraform backend for a spec that renders no Terraform. */
public final class TfBackendIgnored extends Rule {
  public TfBackendIgnored() {
    super(
        "tf-backend-ignored",
        Severity.WARNING,
        "terraform.backend on static hosts, which render no Terraform",
        "terraform.backend.s3 renders terraform/backend.tf for the Terraform of an AWS or GKE"
            + " cluster. Static hosts exist already and get no terraform/ folder, so the setting"
            + " changes nothing. Remove it. Source:"
            + " https://developer.hashicorp.com/terraform/language/backend/s3");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    if (plan.staticHosts() && plan.spec().terraform().s3Backend().isPresent()) {
      findings.report(
          SpecPath.of("terraform", "backend"),
          "terraform.backend does nothing for static hosts: they render no Terraform",
          "remove terraform.backend");
    }
  }
}
