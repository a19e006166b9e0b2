package dev.gpugen.lint.rules.sec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;

/** Root volumes hold keys, checkpoints and datasets: encrypt them at rest. */
public final class SecUnencryptedStorage extends PoolRule {
  public SecUnencryptedStorage() {
    super(
        "sec-unencrypted-storage",
        Severity.ERROR,
        "a pool's root volume is not encrypted",
        "An unencrypted EBS volume (and its snapshots) exposes whatever the node wrote - cached"
            + " datasets, checkpoints, credentials in shell history. checkov CKV_AWS_8 and trivy"
            + " AVD-AWS-0131 flag it; encryption costs nothing measurable. Remove"
            + " rootVolume.encrypted: false. If you must keep it, skip the rule by id in the spec's"
            + " lint.skip so the exception is written down."
            + " Source: https://docs.aws.amazon.com/ebs/latest/userguide/ebs-encryption.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (!p.pool().rootVolume().encrypted()) {
      findings.report(
          p.path("rootVolume", "encrypted"),
          "pool " + p.pool().name() + " has an unencrypted root volume",
          "remove encrypted: false (EBS encryption is on by default in gpugen)");
    }
  }
}
