package dev.gpugen.lint.rules.aws;

import dev.gpugen.compat.CapacityBlockTypes;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;

/** Capacity Blocks for ML exist for a few accelerated instance types only. */
public final class AwsCapacityBlockInstanceType extends PoolRule {
  public AwsCapacityBlockInstanceType() {
    super(
        "aws-capacity-block-instance-type",
        Severity.ERROR,
        "market capacity-block on an instance type Capacity Blocks are not offered for",
        "EC2 sells Capacity Blocks for ML for a few GPU and Trainium instance types only (the EC2"
            + " user guide lists them with their Regions); a launch of any other type with market"
            + " type capacity-block is refused, and no block of that type can exist to target. Use"
            + " a type the guide lists, or market on-demand (with a targeted On-Demand Capacity"
            + " Reservation in capacityReservationId) or spot. Sources:"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-capacity-blocks.html ,"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-launch.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    CapacityBlockTypes blocks = p.table().capacityBlocks();
    String type = p.pool().instanceType();
    if (p.spec().cloud().provider() != Provider.AWS
        || !p.pool().capacityBlock()
        || blocks.offers(type)) {
      return;
    }
    findings.report(
        p.path("market"),
        "pool "
            + p.pool().name()
            + ": Capacity Blocks are not offered for "
            + type
            + " (AWS lists "
            + String.join(", ", blocks.instanceTypes())
            + ")",
        "use an instance type Capacity Blocks are offered for, or market: on-demand");
  }
}
