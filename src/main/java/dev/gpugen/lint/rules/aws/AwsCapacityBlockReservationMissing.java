package dev.gpugen.lint.rules.aws;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;

/** An instance runs in a Capacity Block only when its launch names the block's reservation. */
public final class AwsCapacityBlockReservationMissing extends PoolRule {
  public AwsCapacityBlockReservationMissing() {
    super(
        "aws-capacity-block-reservation-missing",
        Severity.ERROR,
        "market capacity-block without capacityReservationId",
        "A Capacity Block is delivered as a targeted Capacity Reservation: an instance runs in it"
            + " only when the launch names the reservation id (cr-...) and the market type"
            + " capacity-block. Without the id EC2 refuses the launch. Copy the Capacity Block's"
            + " reservation id (aws ec2 describe-capacity-reservations, or the console's Capacity"
            + " Reservations page) into capacityReservationId. Source:"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-launch.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.spec().cloud().provider() != Provider.AWS
        || !p.pool().capacityBlock()
        || p.pool().capacityReservationId().isPresent()) {
      return;
    }
    findings.report(
        p.path("market"),
        "pool "
            + p.pool().name()
            + " runs in a Capacity Block but names no capacityReservationId; EC2 launches an"
            + " instance into a block only by its reservation id",
        "add capacityReservationId: cr-... (the Capacity Block's reservation id)");
  }
}
