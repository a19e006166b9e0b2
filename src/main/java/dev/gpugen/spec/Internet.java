package dev.gpugen.spec;

/**
 * The nodes' way to the internet ({@code network.internet}): {@code nat} through a NAT gateway in
 * the VPC gpugen creates (https://docs.aws.amazon.com/vpc/latest/userguide/vpc-nat-gateway.html),
 * {@code none} for an air-gapped subnet without a route out, {@code existing} for whatever routes
 * the user's own VPC ({@code vpcId}) has.
 */
public enum Internet implements Keyword {
  NAT("nat"),
  NONE("none"),
  EXISTING("existing");

  private final String spelling;

  Internet(String spelling) {
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
