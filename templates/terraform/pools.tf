
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

  ami_id = startswith(var.image, "ami-") ? var.image : one(data.aws_ami.ubuntu[*].id)
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
}
