package dev.gpugen.inventory;

/** The tags the Terraform render puts on every node, and which the inventory selects by. */
public final class GpugenTags {
  /** Always {@link #MANAGED_BY_VALUE} on gpugen's instances. */
  public static final String MANAGED_BY = "ManagedBy";

  public static final String MANAGED_BY_VALUE = "gpugen";
  public static final String CLUSTER = "gpugen:cluster";
  public static final String ENVIRONMENT = "gpugen:environment";
  public static final String POOL = "gpugen:pool";
  public static final String NAME = "Name";

  /** The S3 bucket the SSM connection moves files through (connection ssm). */
  public static final String SSM_BUCKET = "gpugen:ssm-bucket";

  /**
   * The FSx for Lustre file system's DNS name (storage.lustre): the host variable {@code
   * gpugen_lustre_dns_name}, which the Ansible role lustre_client mounts.
   */
  public static final String LUSTRE_DNS_NAME = "gpugen:lustre-dns-name";

  /** The file system's mount name: the host variable {@code gpugen_lustre_mount_name}. */
  public static final String LUSTRE_MOUNT_NAME = "gpugen:lustre-mount-name";

  private GpugenTags() {}
}
