package dev.gpugen.render;

import dev.gpugen.compat.GcpMachineType;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.plan.SystemPool;
import dev.gpugen.plan.ValidationState;
import dev.gpugen.render.TfShape.Attr;
import dev.gpugen.render.TfShape.Check;
import dev.gpugen.render.TfVar.Section;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Internet;
import dev.gpugen.spec.Placement;
import dev.gpugen.spec.ReleaseChannel;
import dev.gpugen.spec.yaml.Shape;
import dev.gpugen.spec.yaml.Shape.Field;
import dev.gpugen.spec.yaml.Shape.Obj;
import dev.gpugen.spec.yaml.Shape.Str;
import dev.gpugen.spec.yaml.SpecShape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Every Terraform input variable, each declared and valued in one place. The declarations are the
 * same for every spec: variables.tf and gke-variables.tf are these lists written once (static files
 * under templates/, checked against this class by {@code TerraformVariablesFileTest}); the values
 * of a spec, computed from its plan, are terraform.tfvars.json. A variable gpugen gives no value
 * for a plan is left to its default, or to a value the user sets in a file of their own.
 *
 * <p>The pools are one variable, {@code pools}: a map from pool name to an object whose attributes
 * are typed and checked from the grammar's shapes ({@link TfShape}) where the spec has the key, and
 * by hand where the plan derives the value (node keys, names, network interfaces).
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

  private static List<Section> aws() {
    List<Section> out = new ArrayList<>();
    out.add(
        new Section(
            "Cluster",
            List.of(
                TfShape.variable(
                        "cluster_name",
                        specKey("metadata.name"),
                        "Cluster name: the gpugen:cluster tag and the start of every resource name.")
                    .set(p -> p.spec().metadata().name()),
                TfShape.variable(
                        "environment",
                        specKey("metadata.environment"),
                        "Environment (dev, prod, ...): the gpugen:environment tag and a suffix of"
                            + " resource names. null for none.")
                    .set(p -> p.spec().metadata().environment().orElse(null)),
                TfVar.of(
                        "qualified_name",
                        "string",
                        "Start of every resource name: cluster_name, plus -environment when there"
                            + " is one (gpugen's plan writes it).")
                    .validation(
                        "can(regex(\"^[a-z][a-z0-9-]{0,70}$\", {var}))",
                        "The qualified_name must be 1-71 lower-case letters, digits and '-', starting"
                            + " with a letter.")
                    .set(ClusterPlan::qualifiedName),
                TfShape.variable(
                        "region",
                        specKey("cloud.region"),
                        true,
                        "AWS region of every resource, e.g. us-east-1.")
                    .set(p -> p.spec().cloud().region().orElse(null)),
                TfShape.variable(
                        "availability_zone",
                        specKey("cloud.availabilityZone"),
                        true,
                        "The one availability zone of the new subnet; a cluster placement group and"
                            + " EFA traffic stay inside one zone.")
                    .set(p -> p.spec().cloud().availabilityZone().orElse(null)),
                TfShape.variable(
                        "ssh_key_name",
                        specKey("cloud.sshKeyName"),
                        "An existing EC2 key pair for SSH to the nodes; null for none (reach them"
                            + " through SSM Session Manager).")
                    .set(p -> p.spec().cloud().sshKeyName().orElse(null)),
                TfShape.variable(
                        "image",
                        specKey("cloud.image"),
                        true,
                        "Node image: ubuntu-22.04 or ubuntu-24.04 (the newest Canonical AMI, looked"
                            + " up by owner) or an ami-... id.")
                    // cloud.image defaults to software.os.
                    .defaultTo(specKey("software.os").defaultValue())
                    .set(p -> p.spec().cloud().image()),
                TfShape.variable(
                        "metadata_http_tokens",
                        specKey("cloud.imds.httpTokens"),
                        "IMDS session tokens: required (IMDSv2 only, the secure default;"
                            + " CKV_AWS_79, AVD-AWS-0028). optional re-enables IMDSv1, which"
                            + " gpugen's linter refuses (sec-imdsv1-enabled) unless that rule is"
                            + " skipped on purpose.")
                    .set(p -> p.spec().cloud().imds().httpTokens()),
                TfShape.variable(
                        "metadata_hop_limit",
                        specKey("cloud.imds.hopLimit"),
                        "IMDSv2 response hop limit. 1 keeps containers in their own network"
                            + " namespace (bridge or overlay networks) from reaching the node's"
                            + " metadata and its IAM role; raise it to 2 only for containers that"
                            + " must read instance metadata.")
                    .set(p -> p.spec().cloud().imds().hopLimit()),
                TfVar.of(
                        "kms_key_id",
                        "string",
                        "ARN of a customer managed KMS key for the root volumes, the Lustre file"
                            + " system (PERSISTENT types) and the checkpoint bucket; null for AWS"
                            + " managed keys.")
                    .defaultTo(null)
                    // A key ARN, never an alias: EC2 and FSx report a volume's and a file
                    // system's key by its ARN, and the provider compares that with the
                    // configuration as written (kms_key_id is ForceNew on both), so an alias would
                    // plan every node and the file system replaced on every run
                    // (hashicorp/terraform-provider-aws issue 13860 and its kin).
                    .validation(
                        "{var} == null ? true :"
                            + " can(regex(\"^arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:key/[0-9a-z-]+$\","
                            + " {var}))",
                        "The kms_key_id must be a KMS key ARN (arn:aws:kms:REGION:ACCOUNT:key/ID),"
                            + " not an alias: AWS reports the key's ARN, so an alias would replace"
                            + " every node and the Lustre file system on every apply (the key's"
                            + " ARN: aws kms describe-key --key-id alias/NAME --query"
                            + " KeyMetadata.Arn)."),
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
                TfShape.variable(
                        "vpc_cidr",
                        specKey("network.vpcCidr"),
                        "CIDR of the VPC gpugen creates; null when vpc_id names an existing VPC.")
                    .validation(
                        IPV4_NETWORK_16_TO_28,
                        "The vpc_cidr must be an IPv4 network address with a prefix from /16 to"
                            + " /28, like 10.42.0.0/16.")
                    .set(p -> p.spec().network().vpcCidr().orElse(null)),
                TfShape.variable(
                        "subnet_cidr",
                        specKey("network.subnetCidr"),
                        "CIDR of the node subnet gpugen creates, inside vpc_cidr; null when"
                            + " subnet_id names an existing subnet.")
                    .validation(
                        IPV4_NETWORK_16_TO_28,
                        "The subnet_cidr must be an IPv4 network address with a prefix from /16 to"
                            + " /28, like 10.42.0.0/20.")
                    .set(p -> p.spec().network().subnetCidr().orElse(null)),
                TfShape.variable(
                        "vpc_id",
                        specKey("network.vpcId"),
                        "An existing VPC to use instead of creating one (with subnet_id); null to"
                            + " create one.")
                    .set(p -> p.spec().network().vpcId().orElse(null)),
                TfShape.variable(
                        "subnet_id",
                        specKey("network.subnetId"),
                        "An existing subnet of vpc_id for the nodes and the Lustre file system;"
                            + " null to create one.")
                    .set(p -> p.spec().network().subnetId().orElse(null)),
                TfShape.variable(
                        "ssh_ingress_cidrs",
                        specKey("network.sshIngressCidrs"),
                        "IPv4 CIDRs allowed to reach the nodes on TCP 22; empty for no SSH (use"
                            + " SSM Session Manager).")
                    .validation(
                        "alltrue([for c in {var} : can(cidrnetmask(c)) && try(cidrsubnet(c, 0, 0)"
                            + " == c, false)])",
                        "Every ssh_ingress_cidrs entry must be an IPv4 network address with a"
                            + " prefix, like 203.0.113.0/24.")
                    .set(p -> p.spec().network().sshIngressCidrs()),
                TfVar.of(
                        "enable_nat_gateway",
                        "bool",
                        "Give the nodes of a VPC that gpugen creates a path to the internet"
                            + " (package repositories, NGC, SSM): a NAT gateway in a small public"
                            + " subnet. The nodes never get public addresses.")
                    .defaultTo(false)
                    .set(p -> p.spec().network().natGateway()),
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
                    .set(p -> p.vpcInterfaceEndpoints()),
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
                    .set(p -> p.ssmBucketPrefix().orElse(null)),
                TfVar.of(
                        "allow_web_egress",
                        "bool",
                        "Let the nodes open HTTPS and HTTP connections to any address (package"
                            + " repositories, NGC, SSM, S3). false limits them to each other, the"
                            + " Lustre file system and S3 through the VPC endpoint.")
                    .defaultTo(true),
                TfShape.variable(
                        "placement_strategy",
                        specKey("network.placement"),
                        "EC2 placement group strategy of each pool: cluster (one rack row, lowest"
                            + " latency: multi-node training), partition, spread or none.")
                    .set(p -> p.spec().network().placement()))));
    out.add(
        new Section(
            "Storage",
            List.of(
                TfVar.of(
                        "lustre_enabled",
                        "bool",
                        "Create an FSx for Lustre file system in the node subnet.")
                    .defaultTo(false)
                    .set(p -> p.spec().storage().lustre().isPresent()),
                lustre(
                    TfShape.variable(
                        "lustre_capacity_gib",
                        specKey("storage.lustre.capacityGiB"),
                        false,
                        "FSx for Lustre capacity in GiB: 1200, 2400 or a multiple of 2400"
                            + " (SCRATCH_1: 1200, 2400 or a multiple of 3600). null without a"
                            + " file system (storage.tf's precondition asks for one with it)."),
                    ClusterSpec.Lustre::capacityGiB),
                lustre(
                    TfShape.variable(
                        "lustre_deployment_type",
                        specKey("storage.lustre.deploymentType"),
                        "FSx for Lustre deployment type."),
                    ClusterSpec.Lustre::deploymentType),
                lustre(
                    TfShape.variable(
                        "lustre_per_unit_storage_throughput",
                        specKey("storage.lustre.perUnitStorageThroughput"),
                        "MB/s per TiB of storage: PERSISTENT_1 50, 100 or 200; PERSISTENT_2"
                            + " 125, 250, 500 or 1000 (storage.tf's precondition); null for"
                            + " SCRATCH types."),
                    l -> l.perUnitStorageThroughput().orElse(null)),
                lustre(
                    TfShape.variable(
                        "lustre_mount_point",
                        specKey("storage.lustre.mountPoint"),
                        "Where the nodes mount the file system (used by the Ansible roles; an"
                            + " output here)."),
                    ClusterSpec.Lustre::mountPoint),
                TfShape.variable(
                        "checkpoint_bucket",
                        specKey("storage.checkpointBucket"),
                        "Name of the S3 bucket gpugen creates for checkpoints (versioned,"
                            + " encrypted, never public); null for none.")
                    .validation(
                        "{var} == null ? true : !strcontains({var}, \"..\")",
                        "The checkpoint_bucket must not have two '.' in a row.")
                    .set(p -> p.spec().storage().checkpointBucket().orElse(null)),
                TfVar.of(
                        "retain_data",
                        "bool",
                        "Keep the FSx for Lustre file system and the checkpoint bucket"
                            + " (storage.retain): Terraform refuses every plan that deletes or"
                            + " replaces them (prevent_destroy). false moves them to addresses"
                            + " without it (moved.tf follows storage.retain), where a plan may"
                            + " delete them.")
                    .defaultTo(true)
                    .set(p -> p.spec().storage().retain()),
                TfVar.of(
                        "lustre_backup_retention_days",
                        "number",
                        "Days FSx keeps the daily automatic backups of a PERSISTENT file system"
                            + " (SCRATCH types have no backups); deleting it takes a final backup"
                            + " first.")
                    .defaultTo(7)
                    .validation(
                        "{var} >= 1 && {var} <= 90 && floor({var}) == {var}",
                        "The lustre_backup_retention_days must be a whole number from 1 to 90."),
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
    out.add(new Section("Pools", List.of(awsPools(), acceptedNodeSettings())));
    out.add(new Section("Kubernetes API access (eks.tf, kubeadm.tf)", kubernetesApi()));
    out.add(new Section("kubeadm control plane (kubeadm.tf)", kubeadm()));
    out.add(new Section("EKS (eks.tf)", eks()));
    out.add(new Section("Pull mode (pull.tf)", pull()));
    return List.copyOf(out);
  }

  /** A Lustre setting: written only when the spec has a file system, else left to its default. */
  private static TfVar lustre(TfVar v, Function<ClusterSpec.Lustre, Object> value) {
    return v.setIf(
        p -> p.spec().storage().lustre().isPresent(),
        p -> value.apply(p.spec().storage().lustre().get()));
  }

  private static boolean kubeadm(ClusterPlan p) {
    return p.spec().kubernetes().filter(ClusterSpec.Kubernetes::kubeadm).isPresent();
  }

  private static boolean eks(ClusterPlan p) {
    return p.spec().kubernetes().filter(ClusterSpec.Kubernetes::eks).isPresent();
  }

  private static ClusterSpec.Kubernetes kubernetes(ClusterPlan p) {
    return p.spec().kubernetes().orElseThrow();
  }

  /** A pool attribute from the grammar's key {@code key} of a pool. */
  private static Field poolKey(String key) {
    return SpecShape.pool().field(key).orElseThrow();
  }

  /** The grammar's key at {@code path} (keys from the spec's root, dotted: cloud.imds.hopLimit). */
  private static Field specKey(String path) {
    Field f = null;
    Shape s = SpecShape.root();
    for (String k : path.split("\\.")) {
      f = ((Obj) s).field(k).orElseThrow(() -> new IllegalArgumentException("no key " + path));
      s = f.shape();
    }
    return f;
  }

  /** A key of a mapping of the grammar. */
  private static Field key(Field mapping, String key) {
    return ((Obj) mapping.shape()).field(key).orElseThrow();
  }

  /**
   * The {@code pools} variable: its object type from the attributes, one validation block per check
   * of each attribute (and of the pool names), each over every pool.
   */
  private static TfVar pools(String description, List<Attr> attrs) {
    String type = "map(" + TfShape.object(attrs).replace("\n", "\n  ") + ")";
    TfVar v = TfVar.of("pools", type, description);
    Str name = (Str) poolKey("name").shape();
    v =
        v.validation(
            "alltrue([for name in keys({var}) : "
                + TfShape.string(name).replace("{x}", "name")
                + "])",
            "Every pools key must be " + name.describe() + ".");
    for (Attr a : attrs) {
      for (Check c : a.checks()) {
        String attr = "pool." + a.name();
        v =
            v.validation(
                "alltrue([for name, pool in {var} : "
                    + c.condition().replace("{attr}", attr).replace("{x}", attr + c.path())
                    + "])",
                "Every pools entry's " + a.name() + c.path() + " must be " + c.what() + ".");
      }
    }
    return v;
  }

  /**
   * AWS: one object per pool, keyed by its name. What the plan derives (node keys and Name tags,
   * placement group, launch template prefix, network interfaces, the pull-mode script) is written
   * as it is, so HCL computes none of it.
   */
  private static TfVar awsPools() {
    Field count = poolKey("count");
    List<Attr> attrs =
        List.of(
            TfShape.required("instance_type", poolKey("instanceType")),
            // Across two attributes, for a pool written by hand (the linter refuses such specs:
            // aws-capacity-block-reservation-missing, aws-spot-with-reservation): a Capacity
            // Block runs only in its reservation, and Spot Instances in none
            // (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-launch.html).
            TfShape.attr("market", poolKey("market"))
                .check(
                    "{x} == \"capacity-block\" ? pool.capacity_reservation_id != null : ({x} !="
                        + " \"spot\" || pool.capacity_reservation_id == null)",
                    "on-demand, capacity-block with a capacity_reservation_id (the Capacity Block's),"
                        + " or spot without one (Spot Instances run in no Capacity Reservation)"),
            TfShape.attr("capacity_reservation_id", poolKey("capacityReservationId")),
            TfShape.attr("nodes", "map(string)", true)
                .check(
                    "length({x}) <= " + ((Shape.Int) count.shape()).max(),
                    "a map of at most " + ((Shape.Int) count.shape()).max() + " nodes")
                .check(
                    "alltrue([for key, tag in {x} : can(regex(\"^(0|[1-9][0-9]{0,4})$\", key))"
                        + " && length(tag) >= 1 && length(tag) <= 255])",
                    "node keys \"0\", \"1\", ... to Name tags of 1-255 characters"),
            TfShape.attr("placement_group", "string", false)
                .check(
                    "length({x}) >= 1 && length({x}) <= 255",
                    "null or a placement group name of 1-255 characters"),
            // The launch template name is 3-128 of these characters; AWS adds 26 to the prefix.
            TfShape.attr("launch_template_name_prefix", "string", true)
                .check(
                    "can(regex(\"^[a-zA-Z0-9()./_-]{1,102}$\", {x}))",
                    "1-102 letters, digits and ( ) . / _ -"),
            TfShape.attr(
                    "network_interfaces",
                    TfShape.object(
                                List.of(
                                    TfShape.attr("network_card_index", "number", true),
                                    TfShape.attr("interface_type", "string", false)))
                            .replace("object(", "list(object(")
                        + ")",
                    true)
                .check(
                    "length({x}) >= 1 && alltrue([for i, n in {x} : n.network_card_index == i])",
                    "one interface per network card, in card order from 0")
                // The EFA check, on what the plan writes: the primary interface on card 0 (EFA
                // with ENA, or ENA alone where card 0 has no EFA, as on P6-B300), efa-only on
                // every other card; or the primary ENA interface alone.
                .check(
                    "alltrue([for i, n in {x} : i == 0 ? (n.interface_type == null ||"
                        + " n.interface_type == \"efa\") : n.interface_type == \"efa-only\"])",
                    "the primary interface on card 0 (interface_type efa, or null for ENA alone)"
                        + " and an efa-only interface on every other card"),
            TfShape.attr("root_volume", poolKey("rootVolume")),
            TfShape.attr("node_labels", poolKey("labels"))
                // kubelet refuses to start with a label in the kubernetes.io or k8s.io namespaces
                // other than these (NodeRestriction,
                // https://kubernetes.io/docs/reference/access-authn-authz/admission-controllers/#noderestriction).
                .check(
                    "alltrue([for k, v in {x} : !can(regex(\"(^|[.])(kubernetes[.]io|k8s[.]io)/\","
                        + " k)) ||"
                        + " can(regex(\"^(kubelet[.]kubernetes[.]io|node[.]kubernetes[.]io|([a-z0-9.-]*[.])?node-restriction[.]kubernetes[.]io)/\","
                        + " k))])",
                    "labels kubelet may set: none in the kubernetes.io or k8s.io namespaces but"
                        + " kubelet.kubernetes.io/, node.kubernetes.io/ and"
                        + " node-restriction.kubernetes.io/"),
            TfShape.attr("node_taints", poolKey("taints")),
            TfShape.attr("role", "string", false)
                .check(
                    "{x} == \"system\"",
                    "null for a GPU pool, or system for EKS's system pool (gpugen:role system:"
                        + " the inventory leaves its nodes out)"),
            TfShape.attr("user_data_file", "string", false)
                .check(
                    "can(regex(\"^user-data-[a-z0-9_]+[.]sh$\", {x}))",
                    "null or a file beside the .tf files, like user-data-h100.sh"));
    return pools(
            "The pools of GPU nodes, by name: one modules/pool call each (pools.tf). gpugen's"
                + " plan writes every entry; node_labels and node_taints are EKS's, user_data_file"
                + " pull mode's.",
            attrs)
        .set(TerraformVariables::awsPoolValues);
  }

  /**
   * The node settings each pool's nodes may be launched with without replacing being allowed
   * (plan/NodeSettings): the same object modules/pool compares its settings with.
   */
  static String nodeSettingsType() {
    return TfShape.object(
        List.of(
            TfShape.attr("capacity_reservation_id", "string", true),
            TfShape.attr("image", "string", true),
            TfShape.attr("instance_type", "string", true),
            TfShape.attr("kms_key_id", "string", true),
            TfShape.attr("kubernetes_version", "string", true),
            TfShape.attr("launch_template_name_prefix", "string", true),
            TfShape.attr("market", "string", true),
            TfShape.attr(
                "network_interfaces",
                TfShape.object(
                            List.of(
                                TfShape.attr("interface_type", "string", true),
                                TfShape.attr("network_card_index", "number", true)))
                        .replace("object(", "list(object(")
                    + ")",
                true),
            TfShape.attr("placement_group", "string", true),
            TfShape.attr("root_volume_encrypted", "bool", true),
            TfShape.attr("ssh_key_name", "string", true),
            TfShape.attr("subnet", "string", true)));
  }

  private static TfVar acceptedNodeSettings() {
    return TfVar.of(
            "accepted_node_settings",
            "map(" + nodeSettingsType().replace("\n", "\n  ") + ")",
            "By pool: the settings gpugen render --allow-replace accepted for its nodes, which"
                + " later renders into the same folder keep. A pool whose settings (pools.tf,"
                + " local.node_settings) differ both from these and from those its state records"
                + " (terraform_data.recorded_node_settings) would have every node replaced, and its"
                + " plan is refused; a pool not listed is compared with its state alone.")
        .defaultTo(Map.of())
        .setFromRender(ClusterPlan::aws, TerraformView::acceptedNodeSettings);
  }

  private static Map<String, Object> awsPoolValues(ClusterPlan plan) {
    boolean eks = eks(plan);
    Map<String, Object> out = new TreeMap<>();
    for (PoolPlan pp : plan.pools()) {
      ClusterSpec.Pool p = pp.pool();
      Map<String, Object> v = new TreeMap<>();
      v.put("instance_type", p.instanceType());
      v.put("market", p.market().spelling());
      p.capacityReservationId().ifPresent(id -> v.put("capacity_reservation_id", id));
      Map<String, String> nodes = new LinkedHashMap<>();
      pp.nodes().forEach(n -> nodes.put(n.key(), n.name()));
      v.put("nodes", nodes);
      pp.placementGroup().ifPresent(g -> v.put("placement_group", g));
      v.put("launch_template_name_prefix", pp.launchTemplateNamePrefix());
      v.put("network_interfaces", dev.gpugen.plan.NodeSettings.interfaces(pp));
      Map<String, Object> root = new TreeMap<>();
      root.put("type", p.rootVolume().type());
      root.put("size_gib", p.rootVolume().sizeGiB());
      root.put("iops", p.rootVolume().iops().orElse(null));
      root.put("throughput", p.rootVolume().throughput().orElse(null));
      root.put("encrypted", p.rootVolume().encrypted());
      v.put("root_volume", root);
      if (eks) {
        v.put("node_labels", new TreeMap<>(p.labels()));
        List<ClusterSpec.Taint> registered = new ArrayList<>(p.taints());
        if (ValidationState.gates(plan, pp)) {
          // A gated pool's nodes join tainted; play 05 removes the taint once a node passes.
          registered.add(ValidationState.pendingTaint());
        }
        v.put("node_taints", taints(registered, t -> t));
      }
      if (plan.pullMode()) {
        v.put("user_data_file", "user-data-" + pp.tfPrefix() + ".sh");
      }
      out.put(pp.name(), v);
    }
    plan.systemPool().ifPresent(sp -> out.put(sp.name(), systemPoolValues(plan, sp)));
    return out;
  }

  /**
   * EKS's system pool as one more entry of the pools: on-demand, one ENA interface, no placement
   * group, a gp3 root volume for the images, joined like the GPU pools with its labels and no
   * taint, and no pull-mode script (gpugen configures nothing on it).
   */
  private static Map<String, Object> systemPoolValues(ClusterPlan plan, SystemPool sp) {
    Map<String, Object> v = new TreeMap<>();
    v.put("instance_type", sp.instanceType());
    v.put("market", "on-demand");
    Map<String, String> nodes = new LinkedHashMap<>();
    for (int i = 0; i < sp.count(); i++) {
      nodes.put(String.valueOf(i), plan.qualifiedName() + "-" + sp.name() + "-" + i);
    }
    v.put("nodes", nodes);
    v.put(
        "launch_template_name_prefix",
        dev.gpugen.plan.NodeSettings.systemLaunchTemplateNamePrefix(plan, sp));
    v.put("network_interfaces", dev.gpugen.plan.NodeSettings.systemInterfaces());
    Map<String, Object> root = new TreeMap<>();
    root.put("type", "gp3");
    root.put("size_gib", sp.rootGib());
    root.put("iops", null);
    root.put("throughput", null);
    root.put("encrypted", true);
    v.put("root_volume", root);
    v.put("node_labels", new TreeMap<>(sp.labels()));
    v.put("node_taints", List.of());
    v.put("role", "system");
    return v;
  }

  /** Taints as Terraform objects, the value "" where the spec has none. */
  private static List<Map<String, String>> taints(
      List<ClusterSpec.Taint> taints, Function<String, String> effect) {
    List<Map<String, String>> out = new ArrayList<>();
    for (ClusterSpec.Taint t : taints) {
      Map<String, String> taint = new TreeMap<>();
      taint.put("key", t.key());
      taint.put("value", t.value().orElse(""));
      taint.put("effect", effect.apply(t.effect()));
      out.add(taint);
    }
    return out;
  }

  /**
   * kubernetes.distribution kubeadm on aws: the control-plane instances of kubeadm.tf
   * (control_plane_count 0, the default, for any other distribution). The size floor is kubeadm's
   * minimum (2 CPUs, 2 GB: the install-kubeadm page); the root volume holds etcd, the images and
   * the logs.
   */
  private static List<TfVar> kubeadm() {
    return List.of(
        TfVar.of(
                "control_plane_count",
                "number",
                "How many kubeadm control-plane instances (kubernetes.controlPlane.count): 1, or 3"
                    + " (stacked etcd, an odd count) behind an internal Network Load Balancer; 0"
                    + " for none (another distribution).")
            .defaultTo(0)
            .validation("contains([0, 1, 3], {var})", "The control_plane_count must be 0, 1 or 3.")
            .setIf(TerraformVariables::kubeadm, p -> kubernetes(p).controlPlaneCount()),
        TfShape.variable(
                "control_plane_instance_type",
                specKey("kubernetes.controlPlane.instanceType"),
                "EC2 instance type of the kubeadm control plane (kubernetes.controlPlane"
                    + ".instanceType); x86_64, as the nodes' image.")
            .setIf(TerraformVariables::kubeadm, p -> kubernetes(p).controlPlaneInstanceType()),
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
                "pod_network_ports",
                "map(object({ ip_protocol = string, from_port = number, to_port = number }))",
                "The pod network's ports between the control plane and the GPU nodes, by name"
                    + " (kubernetes.cni: Cilium's VXLAN and health checks, or Calico's BGP,"
                    + " IP-in-IP and Typha); ip_protocol tcp, udp, icmp (from_port the type,"
                    + " to_port the code) or 4 (IP-in-IP, no ports).")
            .defaultTo(Map.of())
            .validation(
                "alltrue([for p in values({var}) : contains([\"tcp\", \"udp\", \"icmp\","
                    + " \"4\"], p.ip_protocol)])",
                "Every pod_network_ports entry's ip_protocol must be tcp, udp, icmp or 4.")
            .validation(
                "alltrue([for p in values({var}) : p.ip_protocol == \"4\" ? p.from_port == null"
                    + " && p.to_port == null : p.from_port != null && p.to_port != null])",
                "A pod_network_ports entry has from_port and to_port, but IP-in-IP (4) has none.")
            .setIf(TerraformVariables::kubeadm, TerraformVariables::podNetworkPorts));
  }

  /** The plan's pod network ports as the pod_network_ports variable's map. */
  private static Object podNetworkPorts(ClusterPlan p) {
    Map<String, Object> out = new TreeMap<>();
    p.podNetworkPorts()
        .forEach(
            (name, port) -> {
              Map<String, Object> entry = new TreeMap<>();
              entry.put("ip_protocol", port.protocol());
              entry.put("from_port", port.from().orElse(null));
              entry.put("to_port", port.to().orElse(null));
              out.put(name, entry);
            });
    return out;
  }

  /**
   * Who besides the nodes may reach the Kubernetes API server's private endpoint, for EKS (443 on
   * the cluster security group) and kubeadm on aws (6443 on the load balancer or the control
   * plane).
   */
  private static List<TfVar> kubernetesApi() {
    return List.of(
        TfShape.variable(
                "kube_api_ingress_cidrs",
                specKey("kubernetes.apiIngressCidrs"),
                "IPv4 CIDRs that may reach the Kubernetes API server besides the nodes"
                    + " (kubernetes.apiIngressCidrs, default network.sshIngressCidrs): the Ansible"
                    + " controller, whose Helm and API calls (plays 02b-05) go there, or a bastion."
                    + " EKS: 443 on the cluster security group, which the private endpoint needs"
                    + " for any network connected to the VPC; kubeadm: 6443 on the load balancer,"
                    + " or on the control-plane instance. Empty when the controller runs inside"
                    + " the node security group.")
            .validation(
                "alltrue([for c in {var} : can(cidrnetmask(c)) && try(cidrsubnet(c, 0, 0)"
                    + " == c, false)])",
                "Every kube_api_ingress_cidrs entry must be an IPv4 network address with a prefix,"
                    + " like 203.0.113.0/24.")
            .setIf(
                p -> kubeadm(p) || eks(p),
                p -> p.spec().kubernetes().orElseThrow().apiIngressCidrs()));
  }

  private static String hclList(List<String> values) {
    return "[" + String.join(", ", values.stream().map(Escape::hcl).toList()) + "]";
  }

  private static final List<String> EKS_ADDONS = dev.gpugen.compat.EksAddonVersions.PINNABLE;

  /** kubernetes.distribution eks (eks.tf): the control plane's settings. */
  private static List<TfVar> eks() {
    return List.of(
        TfVar.of(
                "eks_enabled",
                "bool",
                "Create an EKS control plane the nodes join at boot (kubernetes.distribution eks).")
            .defaultTo(false)
            .set(TerraformVariables::eks),
        TfShape.variable(
                "kubernetes_version",
                specKey("kubernetes.version"),
                false,
                "Kubernetes minor of the EKS cluster, e.g. 1.33; also picks the Ubuntu EKS"
                    + " node image and the add-on versions. null without EKS.")
            .setIf(TerraformVariables::eks, p -> kubernetes(p).version()),
        TfVar.of(
                "eks_endpoint_public_access",
                "bool",
                "Whether the API server also has a public endpoint (kubernetes.endpointAccess"
                    + " public-and-private); the private endpoint is always on.")
            .defaultTo(false)
            .setIf(TerraformVariables::eks, p -> kubernetes(p).publicEndpoint()),
        TfShape.variable(
                "eks_public_access_cidrs",
                specKey("kubernetes.publicCidrs"),
                "IPv4 CIDRs that may reach the public endpoint (kubernetes.publicCidrs).")
            .validation(
                "alltrue([for c in {var} : can(cidrnetmask(c)) && try(cidrsubnet(c, 0, 0)"
                    + " == c, false)])",
                "Every eks_public_access_cidrs entry must be an IPv4 network address with a"
                    + " prefix, like 203.0.113.0/24.")
            .setIf(
                TerraformVariables::eks,
                p -> kubernetes(p).publicEndpoint() ? kubernetes(p).publicCidrs() : List.of()),
        TfShape.variable(
                "eks_admin_arns",
                specKey("kubernetes.admins"),
                "IAM role or user ARNs given cluster-admin through EKS access entries"
                    + " (kubernetes.admins).")
            .setIf(TerraformVariables::eks, p -> kubernetes(p).admins()),
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
                "The EKS add-ons to install and the exact version of each (coredns,"
                    + " eks-pod-identity-agent, kube-proxy, vpc-cni), e.g. { coredns ="
                    + " \"v1.12.4-eksbuild.1\" }: gpugen's plan pins them for"
                    + " kubernetes_version, so that only a change of the spec changes them.")
            .defaultTo(Map.of())
            .validation(
                "alltrue([for k, v in {var} : contains("
                    + hclList(EKS_ADDONS)
                    + ", k) && can(regex(\"^v[0-9]+\\\\.[0-9]+\\\\.[0-9]+-eksbuild\\\\.[0-9]+$\","
                    + " v))])",
                "The eks_addon_versions keys must be coredns, eks-pod-identity-agent,"
                    + " kube-proxy or vpc-cni, with versions like v1.12.4-eksbuild.1.")
            .setIf(TerraformVariables::eks, ClusterPlan::eksAddonVersions),
        TfVar.of(
                "eks_addon_version_overrides",
                "map(string)",
                "Versions over eks_addon_versions, by add-on name, e.g. { vpc-cni ="
                    + " \"v1.20.1-eksbuild.3\" } in an override.auto.tfvars of your own: the"
                    + " add-ons it does not name keep the plan's version (setting"
                    + " eks_addon_versions itself replaces the whole map). Naming"
                    + " eks-pod-identity-agent installs it.")
            .defaultTo(Map.of())
            .validation(
                "alltrue([for k, v in {var} : contains("
                    + hclList(EKS_ADDONS)
                    + ", k) && can(regex(\"^v[0-9]+\\\\.[0-9]+\\\\.[0-9]+-eksbuild\\\\.[0-9]+$\","
                    + " v))])",
                "The eks_addon_version_overrides keys must be coredns, eks-pod-identity-agent,"
                    + " kube-proxy or vpc-cni, with versions like v1.12.4-eksbuild.1."),
        TfVar.of(
                "eks_controller_tolerations",
                "list(object({ key = string, operator = string, value = string, effect ="
                    + " string }))",
                "What the cluster's controllers (CoreDNS here) tolerate: gpugen's plan writes"
                    + " play 05's verdict taint where it gates nodes, and the GPU pools' taints"
                    + " where those are the only nodes; none with the system pool.")
            .defaultTo(List.of())
            .validation(
                "alltrue([for t in {var} : contains([\"Equal\", \"Exists\"], t.operator) &&"
                    + " contains([\"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"],"
                    + " t.effect) && (t.operator == \"Equal\" || t.value == \"\")])",
                "Every eks_controller_tolerations entry needs operator Equal or Exists (Exists"
                    + " with value \"\") and effect NoSchedule, PreferNoSchedule or NoExecute.")
            .setIf(
                TerraformVariables::eks,
                p ->
                    p.controllerTolerations().stream()
                        .map(
                            t -> {
                              Map<String, Object> m = new TreeMap<>();
                              m.put("key", t.key());
                              m.put("operator", t.operator());
                              m.put("value", t.value());
                              m.put("effect", t.effect());
                              return m;
                            })
                        .toList()),
        TfVar.of(
                "eks_controller_node_selector",
                "map(string)",
                "The node labels the cluster's controllers (CoreDNS here) must run on: gpugen's"
                    + " plan writes { gpugen-pool = \"gpugen-system\" } with the system pool.")
            .defaultTo(Map.of())
            .setIf(TerraformVariables::eks, ClusterPlan::controllerNodeSelector),
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
                "Every eks_subnet_ids entry must look like subnet-0abc12345def67890."));
  }

  /** Pull mode's variables (pull.tf): where nodes fetch the bundle and write their reports. */
  private static List<TfVar> pull() {
    return List.of(
        TfVar.of(
                "pull_source",
                "string",
                "Pull mode: where nodes fetch the bundle, s3 (the checkpoint bucket, uploaded here)"
                    + " or git; null without pull mode.")
            .defaultTo(null)
            .validation(
                "{var} == null ? true : contains([\"s3\", \"git\"], {var})",
                "pull_source must be s3, git or null.")
            .setIf(ClusterPlan::pullMode, p -> p.spec().ansible().pull().source()),
        TfVar.of(
                "pull_bundle_prefix",
                "string",
                "Key prefix of the bundle in the checkpoint bucket, versioned by the spec's"
                    + " SHA-256.")
            .defaultTo(null)
            .setIf(ClusterPlan::pullMode, p -> new TerraformView(p).pullBundlePrefix()),
        TfVar.of(
                "pull_bundle_files",
                "list(string)",
                "The bundle's files, relative to the ansible/ folder: exactly the files the"
                    + " user data's digest lists, so Terraform uploads nothing else (no fact cache,"
                    + " kubeconfig or report a push run left there).")
            .defaultTo(List.of())
            .validation(
                "alltrue([for f in {var} : can(regex(\"^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$\","
                    + " f)) && !strcontains(f, \"..\")])",
                "Every pull_bundle_files entry must be a relative path inside the ansible/"
                    + " folder.")
            // The render's own list, not a fact of the plan: what the renderer wrote there.
            .setFromRender(ClusterPlan::pullMode, TerraformView::pullBundleFiles),
        TfVar.of(
                "pull_reports_prefix",
                "string",
                "Key prefix under which nodes write <role-id>:<instance-id>.json (IAM's aws:userid"
                    + " of an instance profile).")
            .defaultTo(null)
            .setIf(ClusterPlan::pullMode, p -> new TerraformView(p).pullReportsPrefix()));
  }

  /**
   * Terraform for GKE, the root module (terraform/): the network, the nodes' service account, the
   * cluster and its node pools. The accelerator type and count of each pool come from gpugen's
   * table, never from the machine type's spelling.
   */
  private static List<Section> gke() {
    List<TfVar> cluster =
        List.of(
            TfShape.variable(
                    "cluster_name",
                    specKey("metadata.name"),
                    "Cluster name (the gpugen-cluster label).")
                .set(p -> p.spec().metadata().name()),
            TfShape.variable(
                    "environment",
                    specKey("metadata.environment"),
                    "Environment (dev, prod, ...): the gpugen-environment label; null for none.")
                .set(p -> p.spec().metadata().environment().orElse(null)),
            gkeProject(),
            gkeRegion(),
            gkeZone(),
            gkeClusterName(),
            TfVar.of(
                    "gke_create_cluster",
                    "bool",
                    "Create the cluster (with its own VPC); false adds the node pools to an"
                        + " existing one.")
                .defaultTo(true)
                .set(p -> p.spec().cloud().gke().map(ClusterSpec.Gke::create).orElse(true)),
            TfVar.of(
                    "gke_release_channel",
                    "string",
                    "The release channel of the cluster gpugen creates (node auto-upgrade stays on,"
                        + " as GKE requires in a channel).")
                .defaultTo(ReleaseChannel.REGULAR.api())
                .validation(
                    "contains([\"RAPID\", \"REGULAR\", \"STABLE\", \"EXTENDED\"], {var})",
                    "The gke_release_channel must be RAPID, REGULAR, STABLE or EXTENDED.")
                .set(p -> p.spec().cloud().gke().orElseThrow().releaseChannel().api()),
            TfShape.variable(
                    "gke_version",
                    specKey("cloud.gke.version"),
                    true,
                    "The cluster's minimum control plane version: a minor (1.35) or an exact"
                        + " version (1.35.2-gke.1962000); new node pools get the control plane's.")
                .set(p -> p.spec().cloud().gke().orElseThrow().version()),
            TfShape.variable(
                    "gke_hold_upgrades_until",
                    specKey("cloud.gke.holdUpgradesUntil"),
                    true,
                    "The last day (UTC) of the maintenance exclusion that holds minor and node"
                        + " upgrades (NO_MINOR_OR_NODE_UPGRADES); at most the end of standard"
                        + " support of the cluster's minor version.")
                .set(p -> p.gkeHoldUpgradesUntil().orElse(null)),
            TfShape.variable(
                    "gke_authorized_networks",
                    specKey("cloud.gke.authorizedNetworks"),
                    "CIDRs that may reach the control plane's public endpoint.")
                .set(p -> p.spec().cloud().gke().orElseThrow().authorizedNetworks()),
            TfVar.of(
                    "gke_private_endpoint",
                    "bool",
                    "The control plane's private endpoint only (reach it from inside the VPC).")
                .defaultTo(false)
                .set(p -> p.spec().cloud().gke().orElseThrow().privateEndpoint()),
            TfVar.of(
                    "subnet_cidr",
                    "string",
                    "The primary range of the node subnet of the VPC gpugen creates; GKE picks the"
                        + " pods' and services' secondary ranges.")
                .validation(
                    "can(cidrnetmask({var}))",
                    "The subnet_cidr must be an IPv4 CIDR like 10.0.0.0/20.")
                .set(p -> p.spec().network().subnetCidr().orElse(null)),
            TfVar.of(
                    "cloud_nat",
                    "bool",
                    "Cloud NAT for the private nodes' way out (network.internet nat): pulling"
                        + " images from nvcr.io and the driver container's downloads.")
                .defaultTo(true)
                .set(p -> p.spec().network().internet() == Internet.NAT),
            TfVar.of(
                    "node_service_account_id",
                    "string",
                    "The account id of the nodes' own service account (roles/container."
                        + "defaultNodeServiceAccount only), instead of the Compute Engine default"
                        + " service account.")
                .validation(
                    "can(regex(\"^[a-z][a-z0-9-]{4,28}[a-z0-9]$\", {var}))",
                    "The node_service_account_id must be 6-30 lower-case letters, digits and '-',"
                        + " starting with a letter.")
                .set(TerraformVariables::nodeServiceAccountId),
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
                .set(p -> p.gkeDriverInstallation().orElseThrow().name()),
            TfVar.of(
                    "node_image_type",
                    "string",
                    "Node image: UBUNTU_CONTAINERD for the operator-installed driver,"
                        + " COS_CONTAINERD for GKE's.")
                .set(p -> p.gkeOperatorDriver() ? "UBUNTU_CONTAINERD" : "COS_CONTAINERD"),
            gkeSystemPool());
    return List.of(new Section("Cluster", cluster), new Section("Pools", List.of(gkePools())));
  }

  /**
   * Terraform for GKE, the second root module (terraform/in-cluster/): what runs on the cluster,
   * applied once the cluster exists, through providers configured from a data source of it.
   */
  private static List<Section> gkeInCluster() {
    List<TfVar> cluster = List.of(gkeProject(), gkeRegion(), gkeZone(), gkeClusterName());
    List<TfVar> onIt =
        List.of(
            TfVar.of(
                    "gpu_operator_enabled",
                    "bool",
                    "Install the NVIDIA GPU Operator (with the driver).")
                .set(ClusterPlan::gkeOperatorDriver),
            // With GitOps, ArgoCD installs the chart and writes nccl.conf: Terraform reads neither.
            TfVar.of(
                    "argocd_enabled",
                    "bool",
                    "ArgoCD (gitops.argocd) installs the GPU Operator chart and writes"
                        + " /etc/nccl.conf; Terraform keeps the namespace, the quota and the"
                        + " time-slicing ConfigMap.")
                .defaultTo(false)
                .set(p -> p.spec().gitops().isPresent()),
            TfVar.of(
                    "gpu_operator_version",
                    "string",
                    "GPU Operator chart version (with the v prefix); null with argocd_enabled.")
                .defaultTo(null)
                .setIf(
                    p -> p.spec().gitops().isEmpty(),
                    p -> p.spec().software().gpuOperator().version()),
            TfVar.of(
                    "gpu_operator_values",
                    "any",
                    "GPU Operator chart values; null with argocd_enabled.")
                .defaultTo(null)
                .setIf(p -> p.spec().gitops().isEmpty(), GpuOperatorValues::of),
            TfVar.of(
                    "gpu_operator_pod_quota",
                    "number",
                    "Pods of the GPU Operator's namespace at system-node-critical or"
                        + " system-cluster-critical priority (its ResourceQuota): twice what every"
                        + " pool at its maximum runs.")
                .validation(
                    "{var} >= 1 && floor({var}) == {var}",
                    "The gpu_operator_pod_quota must be a whole number of pods.")
                .set(ClusterPlan::gkeOperatorPodQuota),
            TfVar.of(
                    "nccl_env",
                    "map(string)",
                    "NCCL settings written to /etc/nccl.conf on every GPU node.")
                .defaultTo(Map.of())
                .setIf(p -> p.spec().gitops().isEmpty(), p -> p.spec().nccl().env()),
            // Time-slicing: GKE's own GPU sharing where GKE runs the device plugin, else the
            // operator's device-plugin config, one entry per sharing pool, picked by a label.
            TfVar.of(
                    "time_slicing_replicas",
                    "map(number)",
                    "GPU Operator device-plugin time-slicing: replicas per GPU by pool (the"
                        + " pool's nodes carry nvidia.com/device-plugin.config=<pool>).")
                .defaultTo(Map.of())
                .set(GpuOperatorValues::gkeTimeSlicing),
            // Never set by gpugen: a person sets it once when upgrading a render whose cluster
            // root still held these objects (docs/gke.md).
            TfVar.of(
                    "adopt_existing",
                    "bool",
                    "Import the objects a render from before this layout created from the cluster's"
                        + " own Terraform (set it once, on the first apply after upgrading).")
                .defaultTo(false));
    return List.of(new Section("Cluster", cluster), new Section("On the cluster", onIt));
  }

  private static TfVar gkeProject() {
    return TfVar.of("project", "string", "The GCP project.")
        .set(p -> p.spec().cloud().project().orElse(null));
  }

  private static TfVar gkeRegion() {
    return TfVar.of("region", "string", "The GCP region.")
        .set(p -> p.spec().cloud().region().orElse(null));
  }

  private static TfVar gkeZone() {
    return TfVar.of("zone", "string", "The zone of the cluster and of every node.")
        .set(p -> p.spec().cloud().availabilityZone().orElse(null));
  }

  private static TfVar gkeClusterName() {
    return TfVar.of("gke_cluster_name", "string", "The GKE cluster's name.")
        .set(p -> p.spec().cloud().gke().map(ClusterSpec.Gke::cluster).orElse(null));
  }

  /**
   * The nodes' service account id: the cluster's name cut to 24 characters (without a trailing '-')
   * and {@code -nodes}; IAM allows 6-30 lower-case letters, digits and '-'.
   */
  static String nodeServiceAccountId(ClusterPlan plan) {
    String cluster = plan.spec().cloud().gke().orElseThrow().cluster();
    String head = cluster.substring(0, Math.min(24, cluster.length())).replaceAll("-+$", "");
    return head + "-nodes";
  }

  private static Map<String, Object> systemPoolValue(ClusterPlan plan) {
    Map<String, Object> v = new TreeMap<>();
    ClusterSpec.SystemPool sp = plan.spec().systemPool();
    v.put("machine_type", sp.instanceType().orElseThrow());
    v.put("node_count", sp.count());
    v.put("disk_size_gb", sp.diskSizeGb());
    v.put(
        "autoscaling",
        sp.autoscaling()
            .map(a -> new TreeMap<>(Map.of("min", a.min(), "max", a.max())))
            .orElse(null));
    return v;
  }

  /**
   * GKE's system pool, typed and checked from the grammar's kubernetes.systemPool; null for none.
   */
  private static TfVar gkeSystemPool() {
    List<Attr> attrs =
        List.of(
            TfShape.required("machine_type", systemPoolKey("instanceType")),
            TfShape.required("node_count", systemPoolKey("count")),
            TfShape.required("disk_size_gb", systemPoolKey("diskSizeGb")),
            TfShape.attr("autoscaling", systemPoolKey("autoscaling"))
                .check("{x}.min <= {x}.max", "bounds with min at most max"));
    TfVar v =
        TfVar.of(
                "system_pool",
                TfShape.object(attrs).replace("\n", "\n  "),
                "The untainted CPU node pool for kube-system and controllers"
                    + " (kubernetes.systemPool); null for none.")
            .defaultTo(null);
    for (Attr a : attrs) {
      for (Check c : a.checks()) {
        String attr = "{var}." + a.name();
        String value = attr + c.path();
        v =
            v.validation(
                "{var} == null ? true : ("
                    + c.condition().replace("{attr}", attr).replace("{x}", value)
                    + ")",
                "The system_pool's " + a.name() + c.path() + " must be " + c.what() + ".");
      }
    }
    return v.setIf(ClusterPlan::gkeSystemPool, TerraformVariables::systemPoolValue);
  }

  private static Field systemPoolKey(String key) {
    return SpecShape.systemPool().field(key).orElseThrow();
  }

  /** GKE: one node pool per entry, keyed by the pool's name. */
  private static TfVar gkePools() {
    Field replicas = key(key(poolKey("software"), "devicePlugin"), "timeSlicingReplicas");
    Obj taintShape = (Obj) ((Shape.ListOf) poolKey("taints").shape()).item();
    String taintKey =
        TfShape.condition(taintShape.field("key").orElseThrow().shape()).orElseThrow();
    String taintValue =
        TfShape.condition(taintShape.field("value").orElseThrow().shape()).orElseThrow();
    List<Attr> attrs =
        List.of(
            TfShape.required("machine_type", poolKey("instanceType")),
            TfShape.attr("accelerator_type", "string", true),
            TfShape.attr("accelerator_count", "number", true),
            TfShape.attr("node_count", poolKey("count")),
            TfShape.attr("autoscaling", poolKey("autoscaling")),
            TfShape.attr("market", poolKey("market")),
            TfShape.attr("reservation", poolKey("reservation")),
            TfShape.attr("disk_size_gb", key(poolKey("rootVolume"), "sizeGiB")),
            TfShape.attr("compact_placement", "bool", true),
            TfShape.attr("time_sharing_clients", "number", false)
                .check(
                    TfShape.condition(replicas.shape()).orElseThrow(),
                    "null or " + replicas.shape().describe()),
            TfShape.attr("labels", poolKey("labels")),
            TfShape.attr(
                    "taints",
                    "list(object({\n  key    = string\n  value  = string\n  effect = string\n}))",
                    "[]")
                .check(
                    "alltrue([for t in {x} : ("
                        + taintKey.replace("{x}", "t.key")
                        + ") && "
                        + taintValue.replace("{x}", "t.value")
                        + " && contains([\"NO_SCHEDULE\", \"PREFER_NO_SCHEDULE\","
                        + " \"NO_EXECUTE\"], t.effect)])",
                    "taints with a Kubernetes label key and value and a GKE effect (NO_SCHEDULE,"
                        + " PREFER_NO_SCHEDULE, NO_EXECUTE)"));
    return pools(
            "The GPU node pools, by name: one google_container_node_pool each"
                + " (gke-node-pools.tf). gpugen's plan writes every entry.",
            attrs)
        .set(TerraformVariables::gkePoolValues);
  }

  private static Map<String, Object> gkePoolValues(ClusterPlan plan) {
    boolean operator = plan.gkeOperatorDriver();
    Map<String, Integer> slicing = GpuOperatorValues.gkeTimeSlicing(plan);
    Map<String, Object> out = new TreeMap<>();
    for (PoolPlan pp : plan.pools()) {
      ClusterSpec.Pool p = pp.pool();
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
      Map<String, Object> v = new TreeMap<>();
      v.put("machine_type", p.instanceType());
      v.put("accelerator_type", m.map(GcpMachineType::accelerator).orElse(null));
      v.put(
          "accelerator_count",
          m.flatMap(
                  t -> t.count().isPresent() ? Optional.of(t.count().getAsInt()) : Optional.empty())
              .orElse(null));
      v.put("node_count", p.count());
      p.autoscaling()
          .ifPresent(
              a -> v.put("autoscaling", new TreeMap<>(Map.of("min", a.min(), "max", a.max()))));
      v.put("market", p.market().spelling());
      p.reservation().ifPresent(r -> v.put("reservation", r));
      v.put("disk_size_gb", p.rootVolume().sizeGiB());
      // Compact placement: one spread-free group for multi-node training, as the EC2 cluster
      // placement group; GKE offers it for the accelerator-optimized families. Not for a pool
      // that consumes a reservation (its VMs are placed as the reservation was made) or that
      // Dynamic Workload Scheduler provisions (it obtains the capacity where it finds it).
      v.put(
          "compact_placement",
          plan.spec().network().placement() == Placement.CLUSTER
              && m.isPresent()
              && pp.maxNodes() > 1
              && p.reservation().isEmpty()
              && !p.market().flexStart());
      if (!operator && replicas > 1) {
        v.put("time_sharing_clients", replicas);
      }
      v.put("labels", labels);
      v.put(
          "taints",
          taints(
              p.taints(),
              effect ->
                  switch (effect) {
                    case "NoSchedule" -> "NO_SCHEDULE";
                    case "PreferNoSchedule" -> "PREFER_NO_SCHEDULE";
                    default -> "NO_EXECUTE";
                  }));
      out.put(pp.name(), v);
    }
    return out;
  }

  /**
   * A variables file as Terraform reads it: a banner per titled section, then each variable block.
   * The file is the same for every spec; templates/terraform/variables.tf and gke-variables.tf are
   * this text, kept in step by {@code TerraformVariablesFileTest}.
   */
  static String file(String intro, List<Section> sections) {
    StringBuilder b = new StringBuilder(intro);
    for (Section s : sections) {
      if (!s.title().isEmpty()) {
        b.append("\n")
            .append("#".repeat(80))
            .append("\n# ")
            .append(s.title())
            .append("\n")
            .append("#".repeat(80))
            .append("\n");
      }
      for (TfVar v : s.variables()) {
        b.append("\n").append(v.hcl()).append("\n");
      }
    }
    return b.toString();
  }

  /** variables.tf: every input of Terraform for AWS. */
  static String awsFile() {
    return file(
        """
        #
        # Every value a user may change without re-rendering. gpugen writes the spec's values into
        # terraform.tfvars.json; to change one without editing the spec, set it in a file of your own
        # (e.g. override.auto.tfvars, which Terraform reads after terraform.tfvars.json and gpugen never
        # touches). The validation blocks repeat AWS's rules, so a bad value fails at plan time.
        """,
        AWS);
  }

  /** gke-variables.tf: every input of Terraform for GKE. */
  static String gkeFile() {
    return file(
        """
        #
        # Every value a user may change without re-rendering; gpugen writes the spec's values into
        # terraform.tfvars.json (override them in a file of your own, e.g. override.auto.tfvars).
        """,
        GKE);
  }

  /** in-cluster/gke-variables.tf: every input of GKE's in-cluster root module. */
  static String gkeInClusterFile() {
    return file(
        """
        #
        # Every value a user may change without re-rendering; gpugen writes the spec's values into
        # terraform.tfvars.json (override them in a file of your own, e.g. override.auto.tfvars).
        """,
        GKE_IN_CLUSTER);
  }

  /** terraform.tfvars.json of the in-cluster root module (GKE), sorted by name. */
  static Map<String, Object> inClusterValues(TerraformView view) {
    return values(view, GKE_IN_CLUSTER);
  }

  /**
   * terraform.tfvars.json of a render, sorted by name: the value of each variable gpugen sets, null
   * where the spec leaves it unset.
   */
  static Map<String, Object> values(TerraformView view) {
    return values(view, view.plan().gke() ? GKE : AWS);
  }

  private static Map<String, Object> values(TerraformView view, List<Section> sections) {
    Map<String, Object> v = new TreeMap<>();
    for (Section s : sections) {
      for (TfVar t : s.variables()) {
        t.value(view).ifPresent(x -> v.put(t.name(), x.json()));
      }
    }
    return v;
  }

  // Last: the lists read the constants above.
  /** Terraform for AWS, in sections: variables.tf. */
  static final List<Section> AWS = aws();

  /** Terraform for GKE, in sections: gke-variables.tf. */
  static final List<Section> GKE = gke();

  /** Terraform for GKE's in-cluster root module, in sections: in-cluster/gke-variables.tf. */
  static final List<Section> GKE_IN_CLUSTER = gkeInCluster();
}
