package dev.gpugen.spec;

/**
 * EC2 instance metadata tokens ({@code cloud.imds.httpTokens}): {@code required} allows IMDSv2
 * only, {@code optional} also IMDSv1 (HttpTokens,
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_InstanceMetadataOptionsRequest.html).
 */
public enum HttpTokens implements Keyword {
  REQUIRED("required"),
  OPTIONAL("optional");

  private final String spelling;

  HttpTokens(String spelling) {
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
