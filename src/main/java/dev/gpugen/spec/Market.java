package dev.gpugen.spec;

/**
 * A pool's purchase option ({@code pools[].market}). The spelling is also EC2's instance lifecycle:
 * {@code spot} for Spot Instances, {@code capacity-block} for instances in a Capacity Block for ML,
 * none for On-Demand ones (DescribeInstances, InstanceLifecycle:
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_Instance.html).
 */
public enum Market implements Keyword {
  ON_DEMAND("on-demand"),
  SPOT("spot"),
  CAPACITY_BLOCK("capacity-block");

  private final String spelling;

  Market(String spelling) {
    this.spelling = spelling;
  }

  @Override
  public String spelling() {
    return spelling;
  }

  /** The spelling, so a message or a string built from the value reads as the spec does. */
  @Override
  public String toString() {
    return spelling;
  }
}
