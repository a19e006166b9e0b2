package dev.gpugen.lint.rules.sec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** AWS credentials written into the spec end up in Terraform variables and on every node. */
public final class SecSecretInSpec extends Rule {
  private static final Pattern ACCESS_KEY_ID =
      Pattern.compile("(?<![A-Z0-9])(AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])");
  private static final Pattern SECRET_KEY =
      Pattern.compile("(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])");

  public SecSecretInSpec() {
    super(
        "sec-secret-in-spec",
        Severity.ERROR,
        "the spec contains what looks like AWS credentials",
        "Spec values are copied into terraform.tfvars.json, Ansible variables, node labels and"
            + " /etc files; a credential there is in Git, in Terraform state and on every node."
            + " gpugen refuses values that look like an AWS access key id (AKIA/ASIA plus 16"
            + " characters) or a 40-character secret access key, as checkov's CKV_SECRET_2 and"
            + " trivy's AVD-AWS-0029 do. Nodes get credentials from their instance profile; keep"
            + " other secrets in SSM Parameter Store or Secrets Manager."
            + " Source: https://docs.aws.amazon.com/IAM/latest/UserGuide/best-practices.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    for (int i = 0; i < spec.pools().size(); i++) {
      ClusterSpec.Pool p = spec.pools().get(i);
      for (Map.Entry<String, String> e : p.labels().entrySet()) {
        scan(
            findings,
            SpecPath.of("pools", i, "labels", e.getKey()),
            e.getKey() + "=" + e.getValue());
      }
      for (int h = 0; h < p.hosts().size(); h++) {
        for (Map.Entry<String, String> e : p.hosts().get(h).vars().entrySet()) {
          scan(
              findings,
              SpecPath.of("pools", i, "hosts", h, "vars", e.getKey()),
              e.getKey() + "=" + e.getValue());
        }
      }
      for (int t = 0; t < p.taints().size(); t++) {
        ClusterSpec.Taint taint = p.taints().get(t);
        scan(
            findings,
            SpecPath.of("pools", i, "taints", t),
            taint.key() + "=" + taint.value().orElse(""));
      }
    }
    spec.nccl().env().forEach((k, v) -> scan(findings, Nccl.path(k), v));
    spec.kernel().sysctl().forEach((k, v) -> scan(findings, SpecPath.of("kernel", "sysctl", k), v));
  }

  private static void scan(Findings findings, SpecPath path, String value) {
    if (ACCESS_KEY_ID.matcher(value).find()) {
      findings.report(
          path,
          path + " contains an AWS access key id",
          "remove it and rotate the key; nodes use their instance profile");
      return;
    }
    Matcher m = SECRET_KEY.matcher(value);
    while (m.find()) {
      String s = m.group();
      if (s.chars().anyMatch(Character::isUpperCase)
          && s.chars().anyMatch(Character::isLowerCase)
          && s.chars().anyMatch(Character::isDigit)) {
        findings.report(
            path,
            path + " contains what looks like an AWS secret access key",
            "remove it and rotate the key; keep secrets in SSM or Secrets Manager");
        return;
      }
    }
  }
}
