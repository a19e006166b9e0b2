package dev.gpugen.lint.rules.aws;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.EnvironmentOverlays;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.Optional;

/**
 * An environment overlay inherits the spec's checkpoint bucket name, which another environment uses
 * too: two environments' Terraform would each create the same S3 bucket, whose names are global.
 */
public final class AwsEnvSharedBucket extends Rule {
  public AwsEnvSharedBucket() {
    super(
        "aws-env-shared-bucket",
        Severity.ERROR,
        "an environment overlay uses another environment's checkpoint bucket name",
        "storage.checkpointBucket set at the top of the spec reaches every environment overlay"
            + " that does not set its own, so where the spec's own environment"
            + " (metadata.environment) or another such overlay has the same name, two environments, each with its own Terraform"
            + " state, both create a bucket of that name. S3 bucket names are unique across all"
            + " of AWS: the second apply fails (BucketAlreadyExists, or BucketAlreadyOwnedByYou"
            + " in the same account), and a bucket adopted into both states would take the other"
            + " environment's checkpoints with it when one deletes it. Give each overlay its own"
            + " name (environments.NAME.storage.checkpointBucket). Source:"
            + " https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html,"
            + " https://docs.aws.amazon.com/AmazonS3/latest/API/API_CreateBucket.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    Optional<String> overlay = plan.spec().selectedEnvironment();
    Optional<String> bucket = plan.spec().storage().checkpointBucket();
    if (!plan.aws() || overlay.isEmpty() || bucket.isEmpty()) {
      return;
    }
    Optional<String> other =
        EnvironmentOverlays.inheritedBy(plan, findings, "storage", "checkpointBucket");
    if (other.isEmpty()) {
      return;
    }
    findings.reportAtKey(
        SpecPath.of("environments", overlay.get()),
        "environment "
            + overlay.get()
            + " creates the checkpoint bucket "
            + bucket.get()
            + ", as "
            + other.get()
            + " does",
        "give environments."
            + overlay.get()
            + " a bucket of its own: storage: {checkpointBucket: "
            + bucket.get()
            + "-"
            + overlay.get()
            + "}");
  }
}
