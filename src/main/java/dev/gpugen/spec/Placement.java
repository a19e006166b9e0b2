package dev.gpugen.spec;

/**
 * The EC2 placement group strategy of the nodes ({@code network.placement}): {@code cluster},
 * {@code partition} and {@code spread} are EC2's strategies
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/placement-strategies.html); {@code none}
 * creates no placement group.
 */
public enum Placement implements Keyword {
  CLUSTER("cluster"),
  PARTITION("partition"),
  SPREAD("spread"),
  NONE("none");

  private final String spelling;

  Placement(String spelling) {
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
