package dev.gpugen.inventory;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How Ansible reaches the nodes, as the inventory tells it per host.
 *
 * <p>{@code ssm}: through AWS Systems Manager Session Manager with community.aws's {@code aws_ssm}
 * connection plugin, which moves files through an S3 bucket. Bucket names are global, so a name is
 * trusted only when gpugen made it: the bucket is the one the Terraform render creates, named
 * {@code ssmBucketPrefix}, the account id and the region ({@link #bucketFor}), which the inventory
 * computes from its settings and each instance's own account and region as EC2 reports them. No tag
 * is read: any account can own a bucket whose name merely starts with the prefix, and a tag naming
 * it would send every module payload (and a node's download) there. {@code ssh}: plain SSH as
 * {@code user} (the image's login user), through {@code proxyJump} when a bastion is set.
 *
 * @param method ssm or ssh
 * @param ssmBucketPrefix the start of the transfer bucket's name (ssm)
 * @param proxyJump {@code user@host[:port]} of the SSH jump host (ssh)
 * @param user the login user on the nodes, every host's {@code ansible_user} (ssh)
 */
public record NodeConnection(
    String method,
    Optional<String> ssmBucketPrefix,
    Optional<String> proxyJump,
    Optional<String> user) {

  /** The connection plugin, by its fully qualified collection name. */
  public static final String SSM_PLUGIN = "community.aws.aws_ssm";

  /** What a spec without connection settings gets: SSH, no jump host. */
  public static final NodeConnection SSH =
      new NodeConnection("ssh", Optional.empty(), Optional.empty(), Optional.empty());

  // S3 bucket names: 3-63 characters of a-z, 0-9, '.', '-', starting and ending with a letter or
  // digit (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html).
  static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
  // The start of the name, before the account id (12 digits), '-' and the region (63 in all).
  static final Pattern BUCKET_PREFIX = Pattern.compile("[a-z0-9][a-z0-9.-]{0,36}");
  static final Pattern ACCOUNT_ID = Pattern.compile("[0-9]{12}");
  static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z0-9]+){2,3}");
  // ssh -J [user@]host[:port]: a login name, a DNS name or IPv4 address, a port.
  static final Pattern PROXY_JUMP =
      Pattern.compile(
          "[a-z_][a-z0-9_-]{0,31}@[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:[1-9][0-9]{0,4})?");

  // A login name as useradd(8) accepts it by default (NAME_REGEX of adduser.conf): nothing a shell,
  // ssh or Jinja would read as more than a name.
  static final Pattern USER = Pattern.compile("[a-z_][a-z0-9_-]{0,31}");

  public NodeConnection {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(ssmBucketPrefix, "ssmBucketPrefix");
    Objects.requireNonNull(proxyJump, "proxyJump");
    Objects.requireNonNull(user, "user");
  }

  public boolean ssm() {
    return method.equals("ssm");
  }

  /**
   * The transfer bucket of an instance in {@code account} and {@code region}: the name ssm.tf gives
   * it, {@code <ssmBucketPrefix><account id>-<region>}. Empty without a prefix, or when the account
   * or region is not one.
   */
  Optional<String> bucketFor(Optional<String> account, String region) {
    if (ssmBucketPrefix.isEmpty()
        || account.filter(a -> ACCOUNT_ID.matcher(a).matches()).isEmpty()
        || !REGION.matcher(region).matches()) {
      return Optional.empty();
    }
    String bucket = ssmBucketPrefix.get() + account.get() + "-" + region;
    return BUCKET.matcher(bucket).matches() ? Optional.of(bucket) : Optional.empty();
  }
}
