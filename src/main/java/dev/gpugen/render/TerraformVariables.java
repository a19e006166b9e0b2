package dev.gpugen.render;

import dev.gpugen.compat.GcpMachineType;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.plan.ValidationState;
import dev.gpugen.render.TfVar.Section;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Placement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Every Terraform input variable of a render, each declared and valued in one place: variables.tf
 * (gke-variables.tf on GKE, pull.tf for pull mode) and terraform.tfvars.json are both written from
 * these lists. A variable with no {@link TfVar#set value} is left to its default, or to a value the
 * user sets in a file of their own.
 */
final class TerraformVariables {
  private TerraformVariables() {}

  /** An IPv4 network address (no host bits) with a prefix from /16 to /28: the VPC's bounds. */
  private static final String IPV4_NETWORK_16_TO_28 =
      """
      {var} == null ? true : alltrue([
            can(cidrnetmask({var})),
            try(cidrsubnet({var}, 0, 0) == {var}, false),
            try(tonumber(split("/", {var})[1]) >= 16 && tonumber(split("/", {var})[1]) <= 28, false),
          ])""";

  /** Terraform for AWS: the cluster, network and storage sections, then one section per pool. */
  static List<Section> aws(ClusterPlan plan) {
    ClusterSpec spec = plan.spec();
    ClusterSpec.Cloud c = spec.cloud();
    ClusterSpec.Network n = spec.network();
    Optional<ClusterSpec.Lustre> lustre = spec.storage().lustre();
    List<Section> out = new ArrayList<>();
    out.add(
        new Section(
            "Cluster",
            List.of(
                TfVar.of(
                        "cluster_name",
                        "string",
                        "Cluster name: the gpugen:cluster tag and the start of every resource name.")
                    .validation(
                        "can(regex(\"^[a-z][a-z0-9-]{0,38}$\", {var}))",
                        "The cluster_name must be 1-39 lower-case letters, digits and '-', starting"
                            + " with a letter.")
                    .set(spec.metadata().name()),
                TfVar.of(
                        "environment",
                        "string",
                        "Environment (dev, prod, ...): the gpugen:environment tag and a suffix of"
                            + " resource names. null for none.")
                    .defaultTo(null)
                    .validation(
                        "{var} == null ? true : can(regex(\"^[a-z][a-z0-9-]{0,30}$\", {var}))",
                        "The environment must be 1-31 lower-case letters, digits and '-', starting"
                            + " with a letter.")
                    .set(spec.metadata().environment().orElse(null)),
                TfVar.of("region", "string", "AWS region of every resource, e.g. us-east-1.")
                    .validation(
                        "can(regex(\"^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}$\", {var}))",
                        "The region must look like us-east-1.")
                    .set(c.region().orElse(null)),
                TfVar.of(
                        "availability_zone",
                        "string",
                        "The one availability zone of the new subnet; a cluster placement group and"
                            + " EFA traffic stay inside one zone.")
                    .validation(
                        "can(regex(\"^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}(-[a-z0-9]+|[a-z])$\", {var}))",
                        "The availability_zone must look like us-east-1a.")
                    .set(c.availabilityZone().orElse(null)),
                TfVar.of(
                        "ssh_key_name",
                        "string",
                        "An existing EC2 key pair for SSH to the nodes; null for none (reach them"
                            + " through SSM Session Manager).")
                    .defaultTo(null)
                    .validation(
                        "{var} == null ? true :"
                            + " can(regex(\"^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$\", {var}))",
                        "The ssh_key_name must be an EC2 key pair name (letters, digits, '.', '_',"
                            + " '-').")
                    .set(c.sshKeyName().orElse(null)),
                TfVar.of(
                        "image",
                        "string",
                        "Node image: ubuntu-22.04 or ubuntu-24.04 (the newest Canonical AMI, looked"
                            + " up by owner) or an ami-... id.")
                    .defaultTo("ubuntu-22.04")
                    .validation(
                        "can(regex(\"^(ubuntu-22\\\\.04|ubuntu-24\\\\.04|ami-[0-9a-f]{8,17})$\","
                            + " {var}))",
                        "The image must be ubuntu-22.04, ubuntu-24.04 or an ami-... id.")
                    .set(c.image()),
                TfVar.of(
                        "metadata_http_tokens",
                        "string",
                        "IMDS session tokens: required (IMDSv2 only, the secure default;"
                            + " CKV_AWS_79, AVD-AWS-0028). optional re-enables IMDSv1, which"
                            + " gpugen's linter refuses (sec-imdsv1-enabled) unless that rule is"
                            + " skipped on purpose.")
                    .defaultTo("required")
                    .validation(
                        "contains([\"required\", \"optional\"], {var})",
                        "The metadata_http_tokens must be required or optional.")
                    .set(c.imds().httpTokens()),
                TfVar.of(
                        "metadata_hop_limit",
                        "number",
                        "IMDSv2 response hop limit. 1 keeps containers in their own network"
                            + " namespace (bridge or overlay networks) from reaching the node's"
                            + " metadata and its IAM role; raise it to 2 only for containers that"
                            + " must read instance metadata.")
                    .defaultTo(1)
                    .validation(
                        "{var} >= 1 && {var} <= 64 && floor({var}) == {var}",
                        "The metadata_hop_limit must be a whole number from 1 to 64.")
                    .set(c.imds().hopLimit()),
                TfVar.of(
                        "kms_key_id",
                        "string",
                        "ARN of a customer managed KMS key for the root volumes, the Lustre file"
                            + " system (PERSISTENT types) and the checkpoint bucket; null for AWS"
                            + " managed keys.")
                    .defaultTo(null)
                    .validation(
                        "{var} == null ? true :"
                            + " can(regex(\"^arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:(key|alias)/.+$\","
                            + " {var}))",
                        "The kms_key_id must be a KMS key or alias ARN."),
                TfVar.of(
                        "iam_permissions_boundary",
                        "string",
                        "ARN of an IAM policy to set as the permissions boundary of the node role,"
                            + " where the account requires one; null for none.")
                    .defaultTo(null)
                    .validation(
                        "{var} == null ? true :"
                            + " can(regex(\"^arn:aws[a-z-]*:iam::([0-9]{12}|aws):policy/.+$\","
                            + " {var}))",
                        "The iam_permissions_boundary must be an IAM policy ARN."))));
    out.add(
        new Section(
            "Network",
            List.of(
                TfVar.of(
                        "vpc_cidr",
                        "string",
                        "CIDR of the VPC gpugen creates; null when vpc_id names an existing VPC.")
                    .defaultTo(null)
                    .validation(
                        IPV4_NETWORK_16_TO_28,
                        "The vpc_cidr must be an IPv4 network address with a prefix from /16 to"
                            + " /28, like 10.42.0.0/16.")
                    .set(n.vpcCidr().orElse(null)),
                TfVar.of(
                        "subnet_cidr",
                        "string",
                        "CIDR of the node subnet gpugen creates, inside vpc_cidr; null when"
                            + " subnet_id names an existing subnet.")
                    .defaultTo(null)
                    .validation(
                        IPV4_NETWORK_16_TO_28,
                        "The subnet_cidr must be an IPv4 network address with a prefix from /16 to"
                            + " /28, like 10.42.0.0/20.")
                    .set(n.subnetCidr().orElse(null)),
                TfVar.of(
                        "vpc_id",
                        "string",
                        "An existing VPC to use instead of creating one (with subnet_id); null to"
                            + " create one.")
                    .defaultTo(null)
                    .validation(
                        "{var} == null ? true : can(regex(\"^vpc-[0-9a-f]{8,17}$\", {var}))",
                        "The vpc_id must look like vpc-0abc12345def67890.")
                    .set(n.vpcId().orElse(null)),
                TfVar.of(
                        "subnet_id",
                        "string",
                        "An existing subnet of vpc_id for the nodes and the Lustre file system;"
                            + " null to create one.")
                    .defaultTo(null)
                    .validation(
                        "{var} == null ? true : can(regex(\"^subnet-[0-9a-f]{8,17}$\", {var}))",
                        "The subnet_id must look like subnet-0abc12345def67890.")
                    .set(n.subnetId().orElse(null)),
                TfVar.of(
                        "ssh_ingress_cidrs",
                        "list(string)",
                        "IPv4 CIDRs allowed to reach the nodes on TCP 22; empty for no SSH (use"
                            + " SSM Session Manager).")
                    .defaultTo(List.of())
                    .validation(
                        "alltrue([for c in {var} : can(cidrnetmask(c)) && try(cidrsubnet(c, 0, 0)"
                            + " == c, false)])",
                        "Every ssh_ingress_cidrs entry must be an IPv4 network address with a"
                            + " prefix, like 203.0.113.0/24.")
                    .set(n.sshIngressCidrs()),
                TfVar.of(
                        "enable_nat_gateway",
                        "bool",
                        "Give the nodes of a VPC that gpugen creates a path to the internet"
                            + " (package repositories, NGC, SSM): a NAT gateway in a small public"
                            + " subnet. The nodes never get public addresses.")
                    .defaultTo(false)
                    .set(n.natGateway()),
                TfVar.of(
                        "public_subnet_cidr",
                        "string",
                        "CIDR of the public subnet that holds the NAT gateway; null for the last"
                            + " /28 of vpc_cidr.")
                    .defaultTo(null)
                    .validation(
                        IPV4_NETWORK_16_TO_28,
                        "The public_subnet_cidr must be an IPv4 network address with a prefix from"
                            + " /16 to /28."),
                TfVar.of(
                        "vpc_interface_endpoints",
                        "list(string)",
                        "AWS services the nodes reach through VPC interface endpoints with private"
                            + " DNS (ssm, ssmmessages, ec2messages for Session Manager without a"
                            + " NAT gateway; ec2 for pull mode's self-tagging; ec2, ecr.api, ecr.dkr,"
                            + " eks, eks-auth, sts for a private EKS cluster).")
                    .defaultTo(List.of())
                    .validation(
                        "alltrue([for s in {var} : contains([\"ssm\", \"ssmmessages\","
                            + " \"ec2messages\", \"ec2\", \"ecr.api\", \"ecr.dkr\", \"eks\","
                            + " \"eks-auth\", \"sts\"], s)])",
                        "The vpc_interface_endpoints may list ssm, ssmmessages, ec2messages, ec2,"
                            + " ecr.api, ecr.dkr, eks, eks-auth and sts.")
                    .set(plan.vpcInterfaceEndpoints()),
                TfVar.of(
                        "ssm_bucket_prefix",
                        "string",
                        "Start of the name of the S3 bucket the SSM connection moves files through"
                            + " (connection ssm), which ends with the account id and the region;"
                            + " null for no bucket.")
                    .defaultTo(null)
                    .validation(
                        "{var} == null ? true : can(regex(\"^[a-z0-9][a-z0-9.-]{0,36}$\", {var}))",
                        "The ssm_bucket_prefix must be up to 37 characters of a-z, 0-9, '.' and"
                            + " '-'.")
                    .set(plan.ssmBucketPrefix().orElse(null)),
                TfVar.of(
                        "allow_web_egress",
                        "bool",
                        "Let the nodes open HTTPS and HTTP connections to any address (package"
                            + " repositories, NGC, SSM, S3). false limits them to each other, the"
                            + " Lustre file system and S3 through the VPC endpoint.")
                    .defaultTo(true),
                TfVar.of(
                        "placement_strategy",
                        "string",
                        "EC2 placement group strategy of each pool: cluster (one rack row, lowest"
                            + " latency: multi-node training), partition, spread or none.")
                    .defaultTo("cluster")
                    .validation(
                        "contains([\"cluster\", \"partition\", \"spread\", \"none\"], {var})",
                        "The placement_strategy must be cluster, partition, spread or none.")
                    .set(n.placement()))));
    out.add(
        new Section(
            "Storage",
            List.of(
                TfVar.of(
                        "lustre_enabled",
                        "bool",
                        "Create an FSx for Lustre file system in the node subnet.")
                    .defaultTo(false)
                    .set(lustre.isPresent()),
                lustre(
                    TfVar.of(
                            "lustre_capacity_gib",
                            "number",
                            "FSx for Lustre capacity in GiB: 1200, 2400 or a multiple of 2400"
                                + " (SCRATCH_1: 1200, 2400 or a multiple of 3600).")
                        .defaultTo(1200)
                        .validation(
                            "{var} >= 1200 && floor({var}) == {var}",
                            "The lustre_capacity_gib must be a whole number of at least 1200."),
                    lustre,
                    ClusterSpec.Lustre::capacityGiB),
                lustre(
                    TfVar.of("lustre_deployment_type", "string", "FSx for Lustre deployment type.")
                        .defaultTo("PERSISTENT_2")
                        .validation(
                            "contains([\"SCRATCH_1\", \"SCRATCH_2\", \"PERSISTENT_1\","
                                + " \"PERSISTENT_2\"], {var})",
                            "The lustre_deployment_type must be SCRATCH_1, SCRATCH_2, PERSISTENT_1"
                                + " or PERSISTENT_2."),
                    lustre,
                    ClusterSpec.Lustre::deploymentType),
                lustre(
                    TfVar.of(
                            "lustre_per_unit_storage_throughput",
                            "number",
                            "MB/s per TiB of storage: PERSISTENT_1 50, 100 or 200; PERSISTENT_2"
                                + " 125, 250, 500 or 1000; null for SCRATCH types.")
                        .defaultTo(null)
                        .validation(
                            "{var} == null ? true : contains([50, 100, 125, 200, 250, 500, 1000],"
                                + " {var})",
                            "The lustre_per_unit_storage_throughput must be 50, 100, 200"
                                + " (PERSISTENT_1) or 125, 250, 500, 1000 (PERSISTENT_2)."),
                    lustre,
                    l -> l.perUnitStorageThroughput().orElse(null)),
                lustre(
                    TfVar.of(
                            "lustre_mount_point",
                            "string",
                            "Where the nodes mount the file system (used by the Ansible roles; an"
                                + " output here).")
                        .defaultTo("/fsx")
                        .validation(
                            "can(regex(\"^/([A-Za-z0-9_-][A-Za-z0-9._-]*)(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$\","
                                + " {var}))",
                            "The lustre_mount_point must be an absolute path like /fsx."),
                    lustre,
                    ClusterSpec.Lustre::mountPoint),
                TfVar.of(
                        "checkpoint_bucket",
                        "string",
                        "Name of the S3 bucket gpugen creates for checkpoints (versioned,"
                            + " encrypted, never public); null for none.")
                    .defaultTo(null)
                    .validation(
                        "{var} == null ? true : can(regex(\"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$\","
                            + " {var})) && !strcontains({var}, \"..\")",
                        "The checkpoint_bucket must be an S3 bucket name: 3-63 characters of a-z,"
                            + " 0-9, '.' and '-'.")
                    .set(spec.storage().checkpointBucket().orElse(null)),
                TfVar.of(
                        "checkpoint_write_access",
                        "bool",
                        "Let the nodes write to the checkpoint bucket, not only read it.")
                    .defaultTo(false),
                TfVar.of(
                        "checkpoint_noncurrent_version_days",
                        "number",
                        "Days the checkpoint bucket keeps an overwritten or deleted object's old"
                            + " version.")
                    .defaultTo(30)
                    .validation(
                        "{var} >= 1 && floor({var}) == {var}",
                        "The checkpoint_noncurrent_version_days must be a whole number of at least"
                            + " 1."))));
    spec.kubernetes()
        .filter(ClusterSpec.Kubernetes::kubeadm)
        .ifPresent(k -> out.add(new Section("kubeadm control plane (kubeadm.tf)", kubeadm(k, n))));
    for (PoolPlan pp : plan.pools()) {
      out.add(new Section("Pool " + pp.name(), awsPool(pp)));
    }
    return out;
  }

  /**
   * kubernetes.distribution kubeadm on aws: the control-plane instances of kubeadm.tf. The size
   * floor is kubeadm's minimum (2 CPUs, 2 GB: the install-kubeadm page); the root volume holds
   * etcd, the images and the logs.
   */
  private static List<TfVar> kubeadm(ClusterSpec.Kubernetes k, ClusterSpec.Network n) {
    return List.of(
        TfVar.of(
                "control_plane_count",
                "number",
                "How many kubeadm control-plane instances (kubernetes.controlPlane.count): 1, or 3"
                    + " (stacked etcd, an odd count) behind an internal Network Load Balancer.")
            .defaultTo(1)
            .validation("contains([1, 3], {var})", "The control_plane_count must be 1 or 3.")
            .set(k.controlPlaneCount()),
        TfVar.of(
                "control_plane_instance_type",
                "string",
                "EC2 instance type of the kubeadm control plane (kubernetes.controlPlane"
                    + ".instanceType); x86_64, as the nodes' image.")
            .validation(
                "can(regex(\"^[a-z][a-z0-9-]*\\\\.[a-z0-9]+$\", {var}))",
                "The control_plane_instance_type must be an EC2 instance type like m7i.xlarge.")
            .set(k.controlPlaneInstanceType()),
        TfVar.of(
                "control_plane_root_volume_size_gib",
                "number",
                "Root volume (gp3, encrypted) of each control-plane instance, in GiB: etcd's data,"
                    + " the container images and the logs.")
            .defaultTo(50)
            .validation(
                "{var} >= 20 && {var} <= 16384 && floor({var}) == {var}",
                "The control_plane_root_volume_size_gib must be a whole number from 20 to 16384."),
        TfVar.of(
                "kube_api_ingress_cidrs",
                "list(string)",
                "IPv4 CIDRs that may reach the Kubernetes API server on TCP 6443 besides the nodes:"
                    + " the Ansible controller, whose Helm and API calls (the CNI, plays 03-05) go"
                    + " there. gpugen sets network.sshIngressCidrs, where the controller connects"
                    + " from; empty when the controller runs inside the node security group.")
            .defaultTo(List.of())
            .validation(
                "alltrue([for c in {var} : can(cidrnetmask(c)) && try(cidrsubnet(c, 0, 0)"
                    + " == c, false)])",
                "Every kube_api_ingress_cidrs entry must be an IPv4 network address with a prefix,"
                    + " like 203.0.113.0/24.")
            .set(n.sshIngressCidrs()));
  }

  /** A Lustre setting: written only when the spec has a file system, else left to its default. */
  private static TfVar lustre(
      TfVar v, Optional<ClusterSpec.Lustre> lustre, Function<ClusterSpec.Lustre, Object> value) {
    return lustre.isPresent() ? v.set(value.apply(lustre.get())) : v;
  }

  private static List<TfVar> awsPool(PoolPlan pp) {
    ClusterSpec.Pool p = pp.pool();
    String v = pp.tfPrefix();
    String pool = pp.name();
    return List.of(
        TfVar.of(v + "_count", "number", "Number of nodes in pool " + pool + ".")
            .defaultTo(0)
            .validation(
                "{var} >= 0 && {var} <= 10000 && floor({var}) == {var}",
                "The " + v + "_count must be a whole number from 0 to 10000.")
            .set(p.count()),
        TfVar.of(v + "_instance_type", "string", "EC2 instance type of pool " + pool + ".")
            .validation(
                "can(regex(\"^[a-z][a-z0-9-]*\\\\.[a-z0-9]+$\", {var}))",
                "The " + v + "_instance_type must be an EC2 instance type like p5.48xlarge.")
            .set(p.instanceType()),
        TfVar.of(
                v + "_spot",
                "bool",
                "Run the nodes of pool "
                    + pool
                    + " as Spot instances (one-time requests, terminated on interruption).")
            .defaultTo(false)
            .set(p.spot()),
        TfVar.of(
                v + "_capacity_block",
                "bool",
                "Run the nodes of pool "
                    + pool
                    + " in an EC2 Capacity Block for ML (market type capacity-block, in the block"
                    + " named by "
                    + v
                    + "_capacity_reservation_id). EC2 terminates them when the block ends.")
            .defaultTo(false)
            .set(p.capacityBlock()),
        TfVar.of(
                v + "_capacity_reservation_id",
                "string",
                "The Capacity Reservation the nodes of pool "
                    + pool
                    + " launch into: a Capacity Block's, or a targeted On-Demand Capacity"
                    + " Reservation's; null for none.")
            .defaultTo(null)
            .validation(
                "{var} == null || can(regex(\"^cr-[0-9a-f]{17}$\", {var}))",
                "The "
                    + v
                    + "_capacity_reservation_id must be a Capacity Reservation id: cr- and 17"
                    + " hexadecimal digits.")
            .set(p.capacityReservationId().orElse(null)),
        TfVar.of(
                v + "_root_volume_encrypted",
                "bool",
                "Encrypt the root disks of pool "
                    + pool
                    + " (the secure default; CKV_AWS_8, AVD-AWS-0131). gpugen's linter refuses"
                    + " false (sec-unencrypted-storage) unless that rule is skipped on purpose.")
            .defaultTo(true)
            .set(p.rootVolume().encrypted()),
        TfVar.of(
                v + "_root_volume_type",
                "string",
                "EBS volume type of the root disks of pool " + pool + ".")
            .defaultTo("gp3")
            .validation(
                "contains([\"gp3\", \"gp2\", \"io1\", \"io2\"], {var})",
                "The " + v + "_root_volume_type must be gp3, gp2, io1 or io2.")
            .set(p.rootVolume().type()),
        TfVar.of(
                v + "_root_volume_size_gib",
                "number",
                "Root disk size of pool " + pool + " in GiB.")
            .defaultTo(200)
            .validation(
                "{var} >= 30 && {var} <= 16384 && floor({var}) == {var}",
                "The " + v + "_root_volume_size_gib must be a whole number from 30 to 16384.")
            .set(p.rootVolume().sizeGiB()),
        TfVar.of(
                v + "_root_volume_iops",
                "number",
                "Provisioned IOPS of the root disks of pool "
                    + pool
                    + " (gp3, io1, io2); null for the volume type's default.")
            .defaultTo(null)
            .validation(
                "{var} == null ? true : {var} >= 3000 && {var} <= 256000",
                "The " + v + "_root_volume_iops must be from 3000 to 256000.")
            .set(p.rootVolume().iops().orElse(null)),
        TfVar.of(
                v + "_root_volume_throughput",
                "number",
                "Throughput of the gp3 root disks of pool "
                    + pool
                    + " in MiB/s; null for the default (125).")
            .defaultTo(null)
            .validation(
                "{var} == null ? true : {var} >= 125 && {var} <= 2000",
                "The " + v + "_root_volume_throughput must be from 125 to 2000.")
            .set(p.rootVolume().throughput().orElse(null)),
        // The version gate's inputs: edit them in tfvars and terraform plan checks them again.
        TfVar.of(
                v + "_driver_version",
                "string",
                "NVIDIA driver version of pool "
                    + pool
                    + ", checked by the version gate (compatibility.tf) against the GPU and the"
                    + " CUDA version.")
            .validation(
                "can(regex(\"^[0-9]{3}(\\\\.[0-9]{1,3}){1,2}$\", {var}))",
                "The " + v + "_driver_version must look like 580.95.05.")
            .set(p.software().driver()),
        TfVar.of(
                v + "_cuda_version",
                "string",
                "CUDA toolkit version (major.minor) of pool "
                    + pool
                    + ", checked by the version gate.")
            .validation(
                "can(regex(\"^[0-9]{2}\\\\.[0-9]{1,2}$\", {var}))",
                "The " + v + "_cuda_version must look like 12.8.")
            .set(p.software().cuda()),
        TfVar.of(
                v + "_fabric",
                "string",
                "Interconnect between the nodes of pool "
                    + pool
                    + ": efa (one EFA interface per network card) or tcp (the primary ENA"
                    + " interface only).")
            .defaultTo("tcp")
            .validation(
                "contains([\"efa\", \"tcp\"], {var})",
                "On AWS the " + v + "_fabric must be efa or tcp.")
            .set(p.fabric()));
  }

  /** A Kubernetes label key (apimachinery's syntax, the spec's LABEL_KEY). */
  private static final String LABEL_KEY =
      "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
          + "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$";

  /** A Kubernetes label value. */
  private static final String LABEL_VALUE = "^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$";

  private static final List<String> EKS_ADDONS =
      List.of("coredns", "eks-pod-identity-agent", "kube-proxy", "vpc-cni");

  /**
   * kubernetes.distribution eks (eks.tf): the control plane's settings, then per pool the labels
   * and taints kubelet registers the nodes with.
   */
  static List<Section> eks(ClusterPlan plan) {
    ClusterSpec.Kubernetes k = plan.spec().kubernetes().orElseThrow();
    List<Section> out = new ArrayList<>();
    out.add(
        new Section(
            "EKS (kubernetes.distribution eks)",
            List.of(
                TfVar.of(
                        "kubernetes_version",
                        "string",
                        "Kubernetes minor of the EKS cluster, e.g. 1.33; also picks the Ubuntu EKS"
                            + " node image and the add-on versions.")
                    .validation(
                        "can(regex(\"^1\\\\.[0-9]{2}$\", {var}))",
                        "The kubernetes_version must be a Kubernetes minor like 1.33.")
                    .set(k.version()),
                TfVar.of(
                        "eks_endpoint_public_access",
                        "bool",
                        "Whether the API server also has a public endpoint (kubernetes.endpointAccess"
                            + " public-and-private); the private endpoint is always on.")
                    .defaultTo(false)
                    .set(k.publicEndpoint()),
                TfVar.of(
                        "eks_public_access_cidrs",
                        "list(string)",
                        "IPv4 CIDRs that may reach the public endpoint (kubernetes.publicCidrs).")
                    .defaultTo(List.of())
                    .validation(
                        "alltrue([for c in {var} : can(cidrnetmask(c)) && try(cidrsubnet(c, 0, 0)"
                            + " == c, false)])",
                        "Every eks_public_access_cidrs entry must be an IPv4 network address with a"
                            + " prefix, like 203.0.113.0/24.")
                    .set(k.publicEndpoint() ? k.publicCidrs() : List.of()),
                TfVar.of(
                        "eks_admin_arns",
                        "list(string)",
                        "IAM role or user ARNs given cluster-admin through EKS access entries"
                            + " (kubernetes.admins).")
                    .defaultTo(List.of())
                    .validation(
                        "alltrue([for a in {var} :"
                            + " can(regex(\"^arn:aws[a-z-]*:iam::[0-9]{12}:(role|user)/[A-Za-z0-9+=,.@_/-]+$\","
                            + " a))])",
                        "Every eks_admin_arns entry must be an IAM role or user ARN, like"
                            + " arn:aws:iam::123456789012:role/platform-admin.")
                    .set(k.admins()),
                TfVar.of(
                        "eks_creator_admin",
                        "bool",
                        "Give the identity that creates the cluster (the one running terraform"
                            + " apply) cluster-admin, as EKS does by default. Changing it replaces"
                            + " the cluster.")
                    .defaultTo(true),
                TfVar.of(
                        "eks_addon_versions",
                        "map(string)",
                        "Exact versions of the core add-ons (coredns, eks-pod-identity-agent,"
                            + " kube-proxy, vpc-cni), e.g. { coredns = \"v1.12.4-eksbuild.1\" }; an"
                            + " add-on not named gets EKS's default version for kubernetes_version.")
                    .defaultTo(Map.of())
                    .validation(
                        "alltrue([for k, v in {var} : contains("
                            + hclList(EKS_ADDONS)
                            + ", k) && can(regex(\"^v[0-9]+\\\\.[0-9]+\\\\.[0-9]+-eksbuild\\\\.[0-9]+$\","
                            + " v))])",
                        "The eks_addon_versions keys must be coredns, eks-pod-identity-agent,"
                            + " kube-proxy or vpc-cni, with versions like v1.12.4-eksbuild.1."),
                TfVar.of(
                        "eks_log_retention_days",
                        "number",
                        "Days CloudWatch keeps the control plane's logs (api, audit, authenticator,"
                            + " controllerManager, scheduler).")
                    .defaultTo(90)
                    .validation(
                        "contains([1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731,"
                            + " 1096, 1827, 2192, 2557, 2922, 3288, 3653], {var})",
                        "The eks_log_retention_days must be a CloudWatch Logs retention period (1,"
                            + " 3, 5, 7, 14, 30, 60, 90, ... 3653)."),
                TfVar.of(
                        "eks_service_cidr",
                        "string",
                        "Range the cluster's Services get addresses from; it must not overlap the"
                            + " VPC or networks the nodes reach. null: 172.20.0.0/16 for a VPC in"
                            + " 10.0.0.0/8 (and an existing VPC), else 10.100.0.0/16.")
                    .defaultTo(null)
                    .validation(
                        "{var} == null ? true : can(cidrnetmask({var})) && try(cidrsubnet({var}, 0,"
                            + " 0) == {var}, false) && try(tonumber(split(\"/\", {var})[1]) >= 12 &&"
                            + " tonumber(split(\"/\", {var})[1]) <= 24, false)",
                        "The eks_service_cidr must be an IPv4 network address with a prefix from /12"
                            + " to /24, like 172.20.0.0/16."),
                TfVar.of(
                        "eks_subnet_cidr",
                        "string",
                        "CIDR of the second control-plane subnet gpugen creates in another zone (EKS"
                            + " needs two); null for the second-to-last /28 of vpc_cidr.")
                    .defaultTo(null)
                    .validation(
                        "{var} == null ? true : can(cidrnetmask({var})) && try(cidrsubnet({var}, 0,"
                            + " 0) == {var}, false)",
                        "The eks_subnet_cidr must be an IPv4 network address with a prefix, like"
                            + " 10.42.255.224/28."),
                TfVar.of(
                        "eks_subnet_zone",
                        "string",
                        "Availability zone of that second subnet; null for the first other zone of"
                            + " the region.")
                    .defaultTo(null)
                    .validation(
                        "{var} == null ? true :"
                            + " can(regex(\"^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}(-[a-z0-9]+|[a-z])$\","
                            + " {var}))",
                        "The eks_subnet_zone must look like us-east-1b."),
                TfVar.of(
                        "eks_subnet_ids",
                        "list(string)",
                        "With an existing VPC: more subnets for the control plane, at least one in"
                            + " another zone than subnet_id.")
                    .defaultTo(List.of())
                    .validation(
                        "alltrue([for s in {var} : can(regex(\"^subnet-[0-9a-f]{8,17}$\", s))])",
                        "Every eks_subnet_ids entry must look like subnet-0abc12345def67890."))));
    for (PoolPlan pp : plan.pools()) {
      out.add(new Section("EKS: pool " + pp.name(), eksPool(plan, pp)));
    }
    return out;
  }

  private static List<TfVar> eksPool(ClusterPlan plan, PoolPlan pp) {
    ClusterSpec.Pool p = pp.pool();
    String v = pp.tfPrefix();
    List<Map<String, String>> taints = new ArrayList<>();
    List<ClusterSpec.Taint> registered = new ArrayList<>(p.taints());
    if (ValidationState.gates(plan, pp)) {
      // A gated pool's nodes join tainted; play 05 removes the taint once a node passes.
      registered.add(ValidationState.pendingTaint());
    }
    for (ClusterSpec.Taint t : registered) {
      Map<String, String> taint = new TreeMap<>();
      taint.put("key", t.key());
      taint.put("value", t.value().orElse(""));
      taint.put("effect", t.effect());
      taints.add(taint);
    }
    return List.of(
        TfVar.of(
                v + "_node_labels",
                "map(string)",
                "Kubernetes labels kubelet registers the nodes of pool " + pp.name() + " with.")
            .defaultTo(Map.of())
            // Kubernetes label syntax, which also keeps them plain in the join script.
            .validation(
                "alltrue([for k, v in {var} : can(regex(\""
                    + LABEL_KEY
                    + "\", k)) && can(regex(\""
                    + LABEL_VALUE
                    + "\", v))])",
                "Every "
                    + v
                    + "_node_labels entry must be a Kubernetes label (key like workload-type or"
                    + " example.com/tier, value of up to 63 letters, digits, '-', '_', '.').")
            // kubelet refuses to start with a label in the kubernetes.io or k8s.io namespaces
            // other than these (NodeRestriction,
            // https://kubernetes.io/docs/reference/access-authn-authz/admission-controllers/#noderestriction).
            .validation(
                "alltrue([for k, v in {var} : !can(regex(\"(^|[.])(kubernetes[.]io|k8s[.]io)/\","
                    + " k)) ||"
                    + " can(regex(\"^(kubelet[.]kubernetes[.]io|node[.]kubernetes[.]io|([a-z0-9.-]*[.])?node-restriction[.]kubernetes[.]io)/\","
                    + " k))])",
                v
                    + "_node_labels: kubelet may not set labels in the kubernetes.io or k8s.io"
                    + " namespaces other than kubelet.kubernetes.io/, node.kubernetes.io/ and"
                    + " node-restriction.kubernetes.io/.")
            .set(new TreeMap<>(p.labels())),
        TfVar.of(
                v + "_node_taints",
                "list(object({ key = string, value = string, effect = string }))",
                "Kubernetes taints kubelet registers the nodes of pool " + pp.name() + " with.")
            .defaultTo(List.of())
            .validation(
                "alltrue([for t in {var} : can(regex(\""
                    + LABEL_KEY
                    + "\", t.key)) && can(regex(\""
                    + LABEL_VALUE
                    + "\", t.value)) && contains([\"NoSchedule\", \"PreferNoSchedule\","
                    + " \"NoExecute\"], t.effect)])",
                "Every "
                    + v
                    + "_node_taints entry needs a Kubernetes label key and value, and effect"
                    + " NoSchedule, PreferNoSchedule or NoExecute.")
            .set(taints));
  }

  private static String hclList(List<String> values) {
    return "[" + String.join(", ", values.stream().map(Escape::hcl).toList()) + "]";
  }

  /** Pull mode's variables (pull.tf): where nodes fetch the bundle and write their reports. */
  static List<TfVar> pull(ClusterPlan plan, TerraformView view) {
    return List.of(
        TfVar.of(
                "pull_source",
                "string",
                "Where nodes fetch the bundle: s3 (the checkpoint bucket, uploaded here) or git.")
            .validation("contains([\"s3\", \"git\"], {var})", "pull_source must be s3 or git.")
            .set(plan.spec().ansible().pull().source()),
        TfVar.of(
                "pull_bundle_prefix",
                "string",
                "Key prefix of the bundle in the checkpoint bucket, versioned by the spec's"
                    + " SHA-256.")
            .set(view.pullBundlePrefix()),
        TfVar.of(
                "pull_bundle_files",
                "list(string)",
                "The bundle's files, relative to the ansible/ folder: exactly the files the"
                    + " user data's digest lists, so Terraform uploads nothing else (no fact cache,"
                    + " kubeconfig or report a push run left there).")
            .validation(
                "alltrue([for f in {var} : can(regex(\"^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$\","
                    + " f)) && !strcontains(f, \"..\")])",
                "Every pull_bundle_files entry must be a relative path inside the ansible/"
                    + " folder.")
            .set(view.pullBundleFiles()),
        TfVar.of(
                "pull_reports_prefix",
                "string",
                "Key prefix under which nodes write <role-id>:<instance-id>.json (IAM's aws:userid of an instance profile).")
            .set(view.pullReportsPrefix()));
  }

  /**
   * Terraform for GKE: one untitled section for the cluster, one per pool. The accelerator type and
   * count of each pool come from gpugen's table, never from the machine type's spelling.
   */
  static List<Section> gke(ClusterPlan plan) {
    ClusterSpec spec = plan.spec();
    ClusterSpec.Cloud c = spec.cloud();
    boolean operator = plan.gkeOperatorDriver();
    Map<String, Integer> slicing = GpuOperatorValues.gkeTimeSlicing(plan);
    List<Section> out = new ArrayList<>();
    List<TfVar> cluster = new ArrayList<>();
    cluster.addAll(
        List.of(
            TfVar.of("cluster_name", "string", "Cluster name (the gpugen-cluster label).")
                .validation(
                    "can(regex(\"^[a-z][a-z0-9-]{0,38}$\", {var}))",
                    "The cluster_name must be 1-39 lower-case letters, digits and '-', starting"
                        + " with a letter.")
                .set(spec.metadata().name()),
            TfVar.of(
                    "environment",
                    "string",
                    "Environment (dev, prod, ...): the gpugen-environment label; null for none.")
                .defaultTo(null)
                .validation(
                    "{var} == null ? true : can(regex(\"^[a-z][a-z0-9-]{0,30}$\", {var}))",
                    "The environment must be 1-31 lower-case letters, digits and '-', starting"
                        + " with a letter.")
                .set(spec.metadata().environment().orElse(null)),
            TfVar.of("project", "string", "The GCP project.").set(c.project().orElse(null)),
            TfVar.of("region", "string", "The GCP region.").set(c.region().orElse(null)),
            TfVar.of("zone", "string", "The zone of the cluster and of every node.")
                .set(c.availabilityZone().orElse(null)),
            TfVar.of("gke_cluster_name", "string", "The GKE cluster's name.")
                .set(c.gke().map(ClusterSpec.Gke::cluster).orElse(null)),
            TfVar.of(
                    "gke_create_cluster",
                    "bool",
                    "Create the cluster; false adds the node pools to an existing one.")
                .defaultTo(true)
                .set(c.gke().map(ClusterSpec.Gke::create).orElse(true)),
            // GKE installs no driver where the operator does; its own device plugin is then
            // disabled by the node label below (GPU Operator on GKE).
            TfVar.of(
                    "gpu_driver_version",
                    "string",
                    "GKE's driver install: INSTALLATION_DISABLED when the GPU Operator installs"
                        + " the driver.")
                .validation(
                    "contains([\"INSTALLATION_DISABLED\", \"DEFAULT\", \"LATEST\"], {var})",
                    "The gpu_driver_version must be INSTALLATION_DISABLED, DEFAULT or LATEST.")
                .set(operator ? "INSTALLATION_DISABLED" : "DEFAULT"),
            TfVar.of(
                    "node_image_type",
                    "string",
                    "Node image: UBUNTU_CONTAINERD for the operator-installed driver,"
                        + " COS_CONTAINERD for GKE's.")
                .set(operator ? "UBUNTU_CONTAINERD" : "COS_CONTAINERD"),
            TfVar.of(
                    "gpu_operator_enabled",
                    "bool",
                    "Install the NVIDIA GPU Operator (with the driver).")
                .set(operator)));
    // With GitOps, ArgoCD installs the chart and writes nccl.conf: Terraform reads neither.
    if (spec.gitops().isEmpty()) {
      cluster.addAll(
          List.of(
              TfVar.of(
                      "gpu_operator_version",
                      "string",
                      "GPU Operator chart version (with the v prefix).")
                  .set(spec.software().gpuOperator().version()),
              TfVar.of("gpu_operator_values", "any", "GPU Operator chart values.")
                  .set(GpuOperatorValues.of(plan)),
              TfVar.of(
                      "nccl_env",
                      "map(string)",
                      "NCCL settings written to /etc/nccl.conf on every GPU node.")
                  .defaultTo(Map.of())
                  .set(spec.nccl().env())));
    }
    cluster.add(
        // Time-slicing: GKE's own GPU sharing where GKE runs the device plugin, else the
        // operator's device-plugin config, one entry per sharing pool, picked by a label.
        TfVar.of(
                "time_slicing_replicas",
                "map(number)",
                "GPU Operator device-plugin time-slicing: replicas per GPU by pool (the"
                    + " pool's nodes carry nvidia.com/device-plugin.config=<pool>).")
            .defaultTo(Map.of())
            .set(slicing));
    out.add(new Section("", cluster));
    for (PoolPlan pp : plan.pools()) {
      out.add(new Section("", gkePool(plan, pp, operator, slicing)));
    }
    return out;
  }

  private static List<TfVar> gkePool(
      ClusterPlan plan, PoolPlan pp, boolean operator, Map<String, Integer> slicing) {
    ClusterSpec.Pool p = pp.pool();
    String v = pp.tfPrefix();
    String pool = pp.name();
    Optional<GcpMachineType> m = pp.hardware().gcp();
    int replicas = p.software().devicePlugin().timeSlicingReplicas();
    Map<String, String> labels = new TreeMap<>(p.labels());
    labels.put("gpugen-pool", p.name());
    if (operator) {
      labels.put("gke-no-default-nvidia-gpu-device-plugin", "true");
    }
    if (slicing.containsKey(p.name())) {
      labels.put("nvidia.com/device-plugin.config", p.name());
    }
    List<Map<String, String>> taints = new ArrayList<>();
    for (ClusterSpec.Taint t : p.taints()) {
      Map<String, String> taint = new TreeMap<>();
      taint.put("key", t.key());
      taint.put("value", t.value().orElse(""));
      taint.put(
          "effect",
          switch (t.effect()) {
            case "NoSchedule" -> "NO_SCHEDULE";
            case "PreferNoSchedule" -> "PREFER_NO_SCHEDULE";
            default -> "NO_EXECUTE";
          });
      taints.add(taint);
    }
    return List.of(
        TfVar.of(v + "_machine_type", "string", "Machine type of pool " + pool + ".")
            .set(p.instanceType()),
        TfVar.of(
                v + "_accelerator_type",
                "string",
                "Accelerator type of pool " + pool + " (gpugen's table for the machine type).")
            .set(m.map(GcpMachineType::accelerator).orElse(null)),
        TfVar.of(
                v + "_accelerator_count",
                "number",
                "Accelerators per node of pool " + pool + " (gpugen's table).")
            .set(
                m.flatMap(
                        t ->
                            t.count().isPresent()
                                ? Optional.of(t.count().getAsInt())
                                : Optional.empty())
                    .orElse(null)),
        TfVar.of(v + "_count", "number", "Nodes of pool " + pool + " without autoscaling.")
            .defaultTo(0)
            .set(p.count()),
        TfVar.of(
                v + "_autoscaling_min",
                "number",
                "Fewest nodes of pool " + pool + "; null without autoscaling.")
            .defaultTo(null)
            .set(p.autoscaling().map(ClusterSpec.Autoscaling::min).orElse(null)),
        TfVar.of(
                v + "_autoscaling_max",
                "number",
                "Most nodes of pool " + pool + "; null without autoscaling.")
            .defaultTo(null)
            .set(p.autoscaling().map(ClusterSpec.Autoscaling::max).orElse(null)),
        TfVar.of(v + "_spot", "bool", "Spot VMs for pool " + pool + ".")
            .defaultTo(false)
            .set(p.spot()),
        TfVar.of(v + "_disk_size_gb", "number", "Boot disk size of pool " + pool + " in GB.")
            .defaultTo(200)
            .set(p.rootVolume().sizeGiB()),
        // Compact placement: one spread-free group for multi-node training, as the EC2 cluster
        // placement group; GKE offers it for the accelerator-optimized families.
        TfVar.of(v + "_compact_placement", "bool", "Compact placement for pool " + pool + ".")
            .defaultTo(false)
            .set(
                plan.spec().network().placement() == Placement.CLUSTER
                    && m.isPresent()
                    && p.count() > 1),
        TfVar.of(
                v + "_time_sharing_clients",
                "number",
                "GKE GPU time-sharing clients per GPU of pool "
                    + pool
                    + " (GKE's device plugin); null: no sharing.")
            .defaultTo(null)
            .set(!operator && replicas > 1 ? replicas : null),
        TfVar.of(v + "_labels", "map(string)", "Kubernetes node labels of pool " + pool + ".")
            .defaultTo(Map.of())
            .set(labels),
        TfVar.of(
                v + "_taints",
                "list(object({\n"
                    + "    key    = string\n"
                    + "    value  = string\n"
                    + "    effect = string\n"
                    + "  }))",
                "Kubernetes node taints of pool " + pool + " (GKE effect names).")
            .defaultTo(List.of())
            .set(taints));
  }
}
