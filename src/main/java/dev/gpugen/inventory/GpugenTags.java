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

  /**
   * What the instance is for: {@value #ROLE_CONTROL_PLANE} on the kubeadm control-plane instances
   * (group kube_control_plane, not gpu_nodes); absent on GPU nodes.
   */
  public static final String ROLE = "gpugen:role";

  public static final String ROLE_CONTROL_PLANE = "control-plane";

  /** EKS's system pool (no GPU): not in the inventory at all. */
  public static final String ROLE_SYSTEM = "system";

  /**
   * The kubeadm control-plane endpoint, HOST:PORT (the internal load balancer's DNS name and the
   * API server port): the host variable {@code gpugen_kube_endpoint} of each control-plane host.
   */
  public static final String KUBE_ENDPOINT = "gpugen:kube-endpoint";

  private GpugenTags() {}
}
