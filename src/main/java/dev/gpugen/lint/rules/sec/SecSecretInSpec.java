package dev.gpugen.lint.rules.sec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Position;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SourceMap;
import dev.gpugen.spec.SpecPath;
import java.util.LinkedHashMap;
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
            + " gpugen scans every string of the spec file (every key and value, every"
            + " environment) and refuses one that looks like an AWS access key id (AKIA/ASIA plus 16"
            + " characters) or a 40-character secret access key, as checkov's CKV_SECRET_2 and"
            + " trivy's AVD-AWS-0029 do. Nodes get credentials from their instance profile; keep"
            + " other secrets in SSM Parameter Store or Secrets Manager."
            + " Source: https://docs.aws.amazon.com/IAM/latest/UserGuide/best-practices.html");
  }

  /**
   * Every string the spec file holds, keys and values, in every section and environment: a list of
   * fields would miss the next one (a control-plane host's variable, a mirror URL, an ARN).
   */
  @Override
  public void check(ClusterPlan plan, Findings findings) {
    // An environment's merged value and its overlay entry are one string of the file: scanned
    // once, reported where it is written (environments.NAME...), as the base spec reports it.
    Map<Position, SourceMap.Text> once = new LinkedHashMap<>();
    for (SourceMap.Text t : findings.writtenTexts()) {
      once.merge(
          t.position(),
          t,
          (first, later) -> later.path().toString().startsWith("environments.") ? later : first);
    }
    for (SourceMap.Text t : once.values()) {
      scan(findings, t.path(), t.text());
    }
  }

  /**
   * {@code text} with what this rule finds masked, each character as {@code *} (the first four of
   * an access key id kept, as AWS's console shows keys), so that printing the line of a finding
   * does not copy the credential into a terminal or a CI log. Lengths are kept, so columns hold.
   */
  public static String redact(String text) {
    StringBuilder b = new StringBuilder(text);
    Matcher id = ACCESS_KEY_ID.matcher(text);
    while (id.find()) {
      for (int i = id.start() + 4; i < id.end(); i++) {
        b.setCharAt(i, '*');
      }
    }
    Matcher m = SECRET_KEY.matcher(text);
    while (m.find()) {
      if (secretLike(m.group())) {
        for (int i = m.start(); i < m.end(); i++) {
          b.setCharAt(i, '*');
        }
      }
    }
    return b.toString();
  }

  /** A 40-character run of the secret key's alphabet with upper case, lower case and a digit. */
  private static boolean secretLike(String s) {
    return s.chars().anyMatch(Character::isUpperCase)
        && s.chars().anyMatch(Character::isLowerCase)
        && s.chars().anyMatch(Character::isDigit);
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
      if (secretLike(m.group())) {
        findings.report(
            path,
            path + " contains what looks like an AWS secret access key",
            "remove it and rotate the key; keep secrets in SSM or Secrets Manager");
        return;
      }
    }
  }
}
