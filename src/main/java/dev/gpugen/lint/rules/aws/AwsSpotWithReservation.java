package dev.gpugen.lint.rules.aws;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;

/** Capacity Reservations hold On-Demand (or Capacity Block) capacity, never Spot. */
public final class AwsSpotWithReservation extends PoolRule {
  public AwsSpotWithReservation() {
    super(
        "aws-spot-with-reservation",
        Severity.ERROR,
        "market spot with a capacityReservationId",
        "A Capacity Reservation reserves capacity for On-Demand Instances (a Capacity Block's for"
            + " instances of market type capacity-block); Spot Instances cannot run in one, and EC2"
            + " refuses a Spot launch that targets a reservation. Use market on-demand with a"
            + " targeted On-Demand Capacity Reservation, capacity-block with a Capacity Block's id,"
            + " or spot without capacityReservationId. Sources:"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-capacity-reservations.html ,"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-launch.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.spec().cloud().provider() != Provider.AWS
        || !p.pool().spot()
        || p.pool().capacityReservationId().isEmpty()) {
      return;
    }
    findings.report(
        p.path("capacityReservationId"),
        "pool "
            + p.pool().name()
            + " is spot but names Capacity Reservation "
            + p.pool().capacityReservationId().get()
            + "; Spot Instances cannot run in a Capacity Reservation",
        "use market: on-demand (or capacity-block for a Capacity Block), or remove"
            + " capacityReservationId");
  }
}
