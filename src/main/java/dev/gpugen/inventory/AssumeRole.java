package dev.gpugen.inventory;

import java.util.Objects;
import java.util.Optional;

/**
 * A role assumed (STS AssumeRole) with the default chain's credentials before EC2 is asked, as
 * {@code amazon.aws.aws_ec2}'s {@code iam_role_arn}.
 *
 * @param roleArn e.g. {@code arn:aws:iam::123456789012:role/inventory}
 * @param externalId the external id the role's trust policy asks for
 * @param sessionName the role session name (CloudTrail shows it)
 */
public record AssumeRole(String roleArn, Optional<String> externalId, String sessionName) {
  /** The session name when none is set. */
  public static final String DEFAULT_SESSION_NAME = "gpugen-inventory";

  public AssumeRole {
    Objects.requireNonNull(roleArn, "roleArn");
    Objects.requireNonNull(externalId, "externalId");
    Objects.requireNonNull(sessionName, "sessionName");
  }
}
