package dev.gpugen.lint.rules.pull;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.PullSource;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** Pull mode from S3 fetches the bundle from the checkpoint bucket, which must exist. */
public final class PullNeedsBucket extends Rule {
  public PullNeedsBucket() {
    super(
        "pull-needs-bucket",
        Severity.ERROR,
        "pull mode from S3 without storage.checkpointBucket",
        "With ansible.mode: pull and ansible.pull.source: s3 (the default), Terraform uploads the"
            + " rendered ansible/ folder to the checkpoint bucket under"
            + " gpugen/<cluster>/bundles/<spec sha256>/, and every node fetches it from there at"
            + " boot and writes its validation report to gpugen/<cluster>/reports/. Without"
            + " storage.checkpointBucket there is no bucket: the nodes would boot, find nothing and"
            + " stay unconfigured. Name a bucket, or fetch the bundle from Git"
            + " (ansible.pull.source: git with gitUrl and gitRef)."
            + " Source: https://docs.aws.amazon.com/AmazonS3/latest/userguide/using-prefixes.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    ClusterSpec.Ansible a = spec.ansible();
    // Other providers get pull-unsupported-provider instead.
    if (a.pullMode()
        && spec.cloud().provider() == Provider.AWS
        && a.pull().source() == PullSource.S3
        && spec.storage().checkpointBucket().isEmpty()) {
      findings.report(
          SpecPath.of("ansible", "mode"),
          "ansible.mode pull fetches the bundle from storage.checkpointBucket, which is not set",
          "set storage.checkpointBucket, or ansible.pull.source: git with gitUrl and gitRef");
    }
  }
}
