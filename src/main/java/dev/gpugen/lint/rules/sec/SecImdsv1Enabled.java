package dev.gpugen.lint.rules.sec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** IMDSv1 answers unauthenticated GETs, the classic SSRF route to instance credentials. */
public final class SecImdsv1Enabled extends Rule {
  public SecImdsv1Enabled() {
    super(
        "sec-imdsv1-enabled",
        Severity.ERROR,
        "the instance metadata service accepts IMDSv1",
        "With http_tokens optional, the EC2 metadata service answers plain GET requests (IMDSv1),"
            + " so any server-side request forgery in a notebook, a model server or a data loader"
            + " can read the node's IAM credentials. IMDSv2 requires a session token from a PUT"
            + " first. checkov CKV_AWS_79 and trivy AVD-AWS-0028 flag it. Use cloud.imds.httpTokens:"
            + " required (the default); if containers on bridge networks need IMDS, raise"
            + " cloud.imds.hopLimit to 2 instead."
            + " Source: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-instance-metadata-service.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    if (spec.cloud().provider() == Provider.AWS && spec.cloud().imds().v1Allowed()) {
      findings.report(
          SpecPath.of("cloud", "imds", "httpTokens"),
          "cloud.imds.httpTokens "
              + spec.cloud().imds().httpTokens()
              + " lets any process on a node read its credentials without a token (IMDSv1)",
          "use httpTokens: required; for containers that need IMDS, hopLimit: 2");
    }
  }
}
