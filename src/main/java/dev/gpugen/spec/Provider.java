package dev.gpugen.spec;

/**
 * Where the nodes run ({@code cloud.provider}): {@code aws} on Amazon EC2
 * (https://docs.aws.amazon.com/ec2/), {@code gcp} as GKE node pools
 * (https://cloud.google.com/kubernetes-engine/docs/concepts/node-pools), {@code static} on hosts
 * the spec lists by address (no cloud API; Ansible only).
 */
public enum Provider implements Keyword {
  AWS("aws"),
  GCP("gcp"),
  STATIC("static");

  private final String spelling;

  Provider(String spelling) {
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
