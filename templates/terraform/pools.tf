
################################################################################
# Image
################################################################################

locals {
  # Canonical's image names for the OS names the spec accepts (hvm-ssd and hvm-ssd-gp3 builds).
  # With EKS, Canonical's Ubuntu EKS images for the cluster's Kubernetes minor (kubelet,
  # containerd and /etc/eks/bootstrap.sh preinstalled; https://cloud-images.ubuntu.com/aws-eks/).
  # Canonical builds 22.04 images for EKS 1.29 and later, 24.04 images for 1.31 and later
  # (https://documentation.ubuntu.com/aws/aws-how-to/kubernetes/deploy-ubuntu-cluster-with-eks-ami/).
  ubuntu_ami_names = var.eks_enabled ? {
    "ubuntu-22.04" = "ubuntu-eks/k8s_${var.kubernetes_version}/images/hvm-ssd*/ubuntu-jammy-22.04-amd64-server-*"
    "ubuntu-24.04" = "ubuntu-eks/k8s_${var.kubernetes_version}/images/hvm-ssd*/ubuntu-noble-24.04-amd64-server-*"
    } : {
    "ubuntu-22.04" = "ubuntu/images/hvm-ssd*/ubuntu-jammy-22.04-amd64-server-*"
    "ubuntu-24.04" = "ubuntu/images/hvm-ssd*/ubuntu-noble-24.04-amd64-server-*"
  }

  # The image the nodes boot: kept in state (terraform_data.image), not looked up again at every
  # plan, so a node created later (a spot node reclaimed and re-created, a pool grown) boots the
  # image its pool's other nodes run, not Canonical's newest.
  ami_id = terraform_data.image.input
}

# Owner-pinned: only Canonical's account can publish an image this lookup finds.
data "aws_ami" "ubuntu" {
  count = startswith(var.image, "ami-") ? 0 : 1

  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = [local.ubuntu_ami_names[var.image]]
  }

  filter {
    name   = "architecture"
    values = ["x86_64"]
  }

  filter {
    name   = "virtualization-type"
    values = ["hvm"]
  }

  filter {
    name   = "root-device-type"
    values = ["ebs"]
  }
}

# The image resolved once: an ami-... id as the spec writes it, or the lookup's answer on the day
# the image was chosen. Only a new choice (another image or, with EKS, another Kubernetes minor)
# replaces it, and that change is one of every pool's node settings: their nodes are replaced onto
# it (guarded like any replacement). The ami_id output names it.
resource "terraform_data" "image" {
  input = startswith(var.image, "ami-") ? var.image : one(data.aws_ami.ubuntu[*].id)

  triggers_replace = {
    image              = var.image
    kubernetes_version = var.eks_enabled ? var.kubernetes_version : null
  }

  lifecycle {
    ignore_changes = [input]
  }
}

################################################################################
# The pools: one module call per entry of var.pools, keyed by the pool's name
################################################################################

locals {
  # Pull mode: the node reads the Lustre file system's address from its own tags (no
  # ec2:DescribeTags permission needed). Tag keys then must not contain "/", which none of
  # gpugen's do (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/work-with-tags-in-IMDS.html).
  # Elsewhere left to EC2.
  instance_metadata_tags = var.pull_source == null ? null : (var.lustre_enabled ? "enabled" : "disabled")

  # What a pool's nodes run at first boot. EKS: the join (eks.tf), with the pool's labels and
  # taints. Pull mode: the node's own configuration (user-data-POOL.sh, rendered by gpugen with
  # every value shell-quoted; no credentials). Both: cloud-init runs the two in order, as a MIME
  # multi-part user data
  # (https://cloudinit.readthedocs.io/en/latest/explanation/format.html#mime-multi-part-archive).
  pool_user_data = {
    for name, p in var.pools : name => (
      var.eks_enabled && p.user_data_file != null ? base64encode(join("\r\n", [
        "Content-Type: multipart/mixed; boundary=\"${local.user_data_boundary}\"",
        "MIME-Version: 1.0",
        "",
        "--${local.user_data_boundary}",
        "Content-Type: text/x-shellscript; charset=\"us-ascii\"",
        "",
        local.eks_join[name],
        "--${local.user_data_boundary}",
        "Content-Type: text/x-shellscript; charset=\"us-ascii\"",
        "",
        file("${path.module}/${p.user_data_file}"),
        "--${local.user_data_boundary}--",
        "",
      ]))
      : var.eks_enabled ? base64encode(local.eks_join[name])
      : p.user_data_file != null ? filebase64("${path.module}/${p.user_data_file}")
      : null
    )
  }

  # The MIME boundary of a two-part user data.
  user_data_boundary = "==GPUGEN-USER-DATA=="

  # EC2 refuses a tag key with "/" on an instance whose metadata exposes its tags (pull mode with
  # Lustre, above): those nodes go without EKS's ownership tag.
  # By pool: what its nodes are launched with and cannot change in place (modules/pool replaces
  # every node when one changes; gpugen's plan/NodeSettings builds the same object for
  # accepted_node_settings). Spec values only, known when Terraform plans: the zone and CIDR of a
  # subnet gpugen creates, not its id.
  node_settings = {
    for name, p in var.pools : name => {
      capacity_reservation_id     = p.capacity_reservation_id
      image                       = var.image
      instance_type               = p.instance_type
      kms_key_id                  = var.kms_key_id
      kubernetes_version          = var.eks_enabled ? var.kubernetes_version : null
      launch_template_name_prefix = p.launch_template_name_prefix
      market                      = p.market
      network_interfaces          = p.network_interfaces
      placement_group             = var.placement_strategy == "none" ? null : p.placement_group
      root_volume_encrypted       = p.root_volume.encrypted
      ssh_key_name                = var.ssh_key_name
      subnet                      = var.subnet_id != null ? var.subnet_id : "${var.availability_zone}/${var.subnet_cidr == null ? "" : var.subnet_cidr}"
    }
  }

  # By pool: the node settings that differ from those its state records
  # (terraform_data.recorded_node_settings) and from those accepted_node_settings lists for it. A
  # setting a release of gpugen adds compares with null until the record is replaced.
  changed_node_settings = {
    for name, settings in local.node_settings : name => [
      for k, v in settings : k if jsonencode(v) != jsonencode(try(terraform_data.recorded_node_settings[name].output[k], null)) && (
        contains(keys(var.accepted_node_settings), name) ? jsonencode(v) != jsonencode(var.accepted_node_settings[name][k]) : true
      )
    ]
  }

  pool_node_tags = merge(
    local.ssm_bucket_tag,
    local.lustre_tags,
    local.instance_metadata_tags == "enabled" ? {} : local.eks_node_tags,
  )
}

module "pool" {
  source   = "./modules/pool"
  for_each = var.pools

  name                        = each.key
  instance_type               = each.value.instance_type
  market                      = each.value.market
  capacity_reservation_id     = each.value.capacity_reservation_id
  nodes                       = each.value.nodes
  placement_group             = each.value.placement_group
  placement_strategy          = var.placement_strategy
  launch_template_name_prefix = each.value.launch_template_name_prefix
  network_interfaces          = each.value.network_interfaces
  root_volume                 = each.value.root_volume
  user_data                   = local.pool_user_data[each.key]
  role                        = each.value.role

  ami_id                 = local.ami_id
  subnet_id              = local.subnet_id
  security_group_ids     = [aws_security_group.nodes.id]
  iam_instance_profile   = aws_iam_instance_profile.nodes.name
  key_name               = var.ssh_key_name
  kms_key_id             = var.kms_key_id
  metadata_http_tokens   = var.metadata_http_tokens
  metadata_hop_limit     = var.metadata_hop_limit
  instance_metadata_tags = local.instance_metadata_tags
  tags                   = local.tags
  node_tags              = local.pool_node_tags

  settings = local.node_settings[each.key]
}

# The node settings each pool's nodes were accepted with, kept in state: recorded when the pool
# is created and kept (ignore_changes) until `terraform apply -replace` of this resource records
# the current ones (gpugen up --allow-replace does). Only -replace re-records it: a replacement
# that a variable could trigger would make the output unknown at plan, and the guard below would
# then pass unchecked. A record replaced is a terraform_data alone, no node.
resource "terraform_data" "recorded_node_settings" {
  for_each = var.pools

  input = local.node_settings[each.key]

  lifecycle {
    ignore_changes = [input]
  }
}

# Replacing a pool's nodes needs an allow. A change of its node settings replaces every node
# (modules/pool, terraform_data.replacement): terminated first, then launched again, into capacity
# that may be gone by then. The plan is refused when a setting differs from the one the state
# records and from the one the render accepted (gpugen render --allow-replace writes the spec's
# into accepted_node_settings, and later renders into the same folder keep them). A render into a
# fresh folder accepts nothing, so it compares with the state alone; a kms_key_id of one's own is
# recorded when the pool is created.
resource "terraform_data" "node_replacement_guard" {
  for_each = var.pools

  lifecycle {
    precondition {
      condition     = length(local.changed_node_settings[each.key]) == 0
      error_message = "Pool ${each.key}: its ${join(", ", local.changed_node_settings[each.key])} changed, which replaces every node of the pool (terminated, then launched again: capacity can be lost). Allow it with gpugen render --allow-replace (or gpugen up --allow-replace), or with terraform apply -replace='terraform_data.recorded_node_settings[\"${each.key}\"]', which records the new settings; or put the setting back."
    }
  }
}
