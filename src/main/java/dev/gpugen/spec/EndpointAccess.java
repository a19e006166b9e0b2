package dev.gpugen.spec;

/**
 * Who reaches an EKS cluster's API endpoint ({@code kubernetes.endpointAccess}): {@code private}
 * from the VPC only, {@code public-and-private} also from the public CIDRs
 * (https://docs.aws.amazon.com/eks/latest/userguide/cluster-endpoint.html).
 */
public enum EndpointAccess implements Keyword {
  PRIVATE("private"),
  PUBLIC_AND_PRIVATE("public-and-private");

  private final String spelling;

  EndpointAccess(String spelling) {
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
