package dev.gpugen.spec;

/**
 * How Ansible reaches the nodes ({@code ansible.connection}): {@code ssm} through AWS Systems
 * Manager Session Manager with the community.aws.aws_ssm connection plugin
 * (https://docs.ansible.com/ansible/latest/collections/community/aws/aws_ssm_connection.html),
 * {@code ssh} over SSH (Ansible's default connection). Named for the spec's {@code
 * ClusterSpec.Connection#method}, since {@code Connection} is that record.
 */
public enum ConnectionMethod implements Keyword {
  SSM("ssm"),
  SSH("ssh");

  private final String spelling;

  ConnectionMethod(String spelling) {
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
