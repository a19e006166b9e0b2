package dev.gpugen.lint.rules.aws;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;

/** A Capacity Block ends at a fixed time, and its instances end with it. */
public final class AwsCapacityBlockEnds extends PoolRule {
  public AwsCapacityBlockEnds() {
    super(
        "aws-capacity-block-ends",
        Severity.WARNING,
        "a Capacity Block pool's nodes are terminated when the block ends",
        "A Capacity Block for ML runs from its start to a fixed end date: thirty minutes before"
            + " it expires EC2 begins to terminate the instances still running in it, and at its"
            + " end every instance of the block is terminated (the root volumes go with them, as"
            + " gpugen deletes them on termination), whatever they are doing. Checkpoint training"
            + " to durable storage (storage.checkpointBucket, a persistent FSx for Lustre file"
            + " system), stop jobs before the end, and buy or extend a block for longer runs; the"
            + " Terraform cannot bring the nodes back without a new block. Sources:"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-using.html ,"
            + " https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CapacityBlock.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.spec().cloud().provider() != Provider.AWS || !p.pool().capacityBlock()) {
      return;
    }
    int lead = p.table().capacityBlocks().terminationLeadMinutes();
    findings.report(
        p.path("market"),
        "pool "
            + p.pool().name()
            + " runs in a Capacity Block: EC2 begins terminating its nodes "
            + lead
            + " minutes before the block's end date, and ends every one at it",
        "checkpoint to durable storage and finish or stop jobs "
            + lead
            + " minutes before the block ends (aws ec2 describe-capacity-blocks shows its end)");
  }
}
