package dev.gpugen.lint.rules.aws;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;

/** Spot capacity is reclaimed with two minutes' notice; training needs somewhere to resume from. */
public final class AwsSpotWithoutCheckpoints extends PoolRule {
  public AwsSpotWithoutCheckpoints() {
    super(
        "aws-spot-without-checkpoints",
        Severity.WARNING,
        "multi-node spot pool without checkpoint storage",
        "EC2 reclaims spot instances with a two-minute notice, and a multi-node job loses every"
            + " rank when one node goes. Without a durable place for checkpoints the job restarts"
            + " from scratch. Give the cluster storage.checkpointBucket (S3) or a persistent FSx"
            + " for Lustre file system, or use on-demand (or Capacity Blocks) for the pool."
            + " Source: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    var storage = p.spec().storage();
    boolean durable =
        storage.checkpointBucket().isPresent()
            || storage
                .lustre()
                .filter(l -> l.deploymentType().startsWith("PERSISTENT"))
                .isPresent();
    if (p.spec().cloud().provider() == Provider.AWS
        && p.pool().spot()
        && p.pool().count() > 1
        && !durable) {
      findings.report(
          p.path("market"),
          "pool "
              + p.pool().name()
              + " runs "
              + p.pool().count()
              + " spot nodes but the cluster has no checkpoint storage; an interruption loses the"
              + " job",
          "add storage.checkpointBucket (or a PERSISTENT Lustre file system), or market: on-demand");
    }
  }
}
