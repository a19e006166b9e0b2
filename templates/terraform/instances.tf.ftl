[=header]

################################################################################
# Image
################################################################################

locals {
<#if terraform.eks>
  # EKS: Canonical's Ubuntu EKS images for the cluster's Kubernetes minor (kubelet, containerd and
  # /etc/eks/bootstrap.sh preinstalled; https://cloud-images.ubuntu.com/aws-eks/). Canonical builds
  # 22.04 images for EKS 1.29 and later, 24.04 images for 1.31 and later
  # (https://documentation.ubuntu.com/aws/aws-how-to/kubernetes/deploy-ubuntu-cluster-with-eks-ami/).
  ubuntu_ami_names = {
    "ubuntu-22.04" = "ubuntu-eks/k8s_${var.kubernetes_version}/images/hvm-ssd*/ubuntu-jammy-22.04-amd64-server-*"
    "ubuntu-24.04" = "ubuntu-eks/k8s_${var.kubernetes_version}/images/hvm-ssd*/ubuntu-noble-24.04-amd64-server-*"
  }
<#else>
  # Canonical's image names for the OS names the spec accepts (hvm-ssd and hvm-ssd-gp3 builds).
  ubuntu_ami_names = {
    "ubuntu-22.04" = "ubuntu/images/hvm-ssd*/ubuntu-jammy-22.04-amd64-server-*"
    "ubuntu-24.04" = "ubuntu/images/hvm-ssd*/ubuntu-noble-24.04-amd64-server-*"
  }
</#if>

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
# Network interfaces
################################################################################

locals {
  # With fabric = "efa", one interface per network card of the instance type (gpugen's table in
  # compatibility.tf): card 0 / device 0 is the primary, an EFA with ENA (IP traffic and EFA), or
  # ENA alone where card 0 has no EFA (P6-B300); every other card gets an efa-only interface at
  # device 0, which carries EFA traffic and uses no IP address. With fabric = "tcp", the primary
  # ENA interface alone.
  pool_network_interfaces = {
    for pool, p in local.pools : pool => [
      for card in range(p.efa_interfaces == 0 ? 1 : p.efa_interfaces + (p.efa_card0 ? 0 : 1)) : {
        network_card_index = card
        interface_type     = p.efa_interfaces == 0 ? null : (card == 0 ? (p.efa_card0 ? "efa" : null) : "efa-only")
      }
    ]
  }
}
<#list terraform.pools as pool>

################################################################################
# Pool [=id(pool.name)]
################################################################################

# The launch template carries what aws_instance cannot say itself: every network interface of
# the instance type. It also holds the version gate, checked on every plan.
resource "aws_launch_template" "[=id(pool.var)]" {
  name_prefix            = "${local.name}-[=id(pool.name)]-"
  description            = [=hcl("gpugen pool " + pool.name + ": network interfaces and metadata options of its nodes")]
  update_default_version = true
<#if terraform.eks && terraform.pull>
  # EKS and pull mode: cloud-init runs both scripts in order (a MIME multi-part user data,
  # https://cloudinit.readthedocs.io/en/latest/explanation/format.html#mime-multi-part-archive):
  # the join, then the node's own configuration (gpugen renders the script; no credentials).
  user_data = base64encode(join("\r\n", [
    "Content-Type: multipart/mixed; boundary=\"${local.user_data_boundary}\"",
    "MIME-Version: 1.0",
    "",
    "--${local.user_data_boundary}",
    "Content-Type: text/x-shellscript; charset=\"us-ascii\"",
    "",
    local.eks_join[[=hcl(pool.var)]],
    "--${local.user_data_boundary}",
    "Content-Type: text/x-shellscript; charset=\"us-ascii\"",
    "",
    file("${path.module}/user-data-[=id(pool.var)].sh"),
    "--${local.user_data_boundary}--",
    "",
  ]))
<#elseif terraform.eks>
  # EKS: the node joins the cluster at first boot, with the pool's labels and taints (eks.tf).
  user_data = base64encode(local.eks_join[[=hcl(pool.var)]])
<#elseif terraform.pull>
  # Pull mode: the node configures itself at boot (gpugen renders the script; no credentials).
  user_data = filebase64("${path.module}/user-data-[=id(pool.var)].sh")
</#if>

  dynamic "network_interfaces" {
    for_each = local.pool_network_interfaces[[=hcl(pool.var)]]

    content {
      network_card_index          = network_interfaces.value.network_card_index
      device_index                = 0
      interface_type              = network_interfaces.value.interface_type
      subnet_id                   = local.subnet_id
      security_groups             = [aws_security_group.nodes.id]
      associate_public_ip_address = false
      delete_on_termination       = true
    }
  }

  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = var.metadata_http_tokens
    http_put_response_hop_limit = var.metadata_hop_limit
<#if terraform.pull>
    # Pull mode: the node reads the Lustre file system's address from its own tags (no
    # ec2:DescribeTags permission needed). Tag keys then must not contain "/", which none of
    # gpugen's do (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/work-with-tags-in-IMDS.html).
    instance_metadata_tags = var.lustre_enabled ? "enabled" : "disabled"
</#if>
  }

  tag_specifications {
    resource_type = "volume"
    tags          = merge(local.tags, { "gpugen:pool" = [=hcl(pool.name)] })
  }

  tag_specifications {
    resource_type = "network-interface"
    tags          = merge(local.tags, { "gpugen:pool" = [=hcl(pool.name)] })
  }

  tags = {
    "gpugen:pool" = [=hcl(pool.name)]
  }

  lifecycle {
    precondition {
      condition     = local.version_gate[[=hcl(pool.var)]].efa_ok
      error_message = local.version_gate[[=hcl(pool.var)]].efa_message
    }

    precondition {
      condition     = local.version_gate[[=hcl(pool.var)]].driver_runs_cuda
      error_message = local.version_gate[[=hcl(pool.var)]].driver_runs_cuda_message
    }

    precondition {
      condition     = local.version_gate[[=hcl(pool.var)]].driver_supports_gpu
      error_message = local.version_gate[[=hcl(pool.var)]].driver_supports_gpu_message
    }
  }
}

resource "aws_instance" "[=id(pool.var)]" {
  count = var.[=id(pool.var)]_count

  ami                  = local.ami_id
  instance_type        = var.[=id(pool.var)]_instance_type
  key_name             = var.ssh_key_name
  iam_instance_profile = aws_iam_instance_profile.nodes.name
  placement_group      = one(aws_placement_group.[=id(pool.var)][*].name)
  ebs_optimized        = true
  monitoring           = true

  launch_template {
    id      = aws_launch_template.[=id(pool.var)].id
    version = aws_launch_template.[=id(pool.var)].latest_version
  }

  dynamic "instance_market_options" {
    for_each = var.[=id(pool.var)]_spot ? ["spot"] : []

    content {
      market_type = "spot"

      spot_options {
        instance_interruption_behavior = "terminate"
        spot_instance_type             = "one-time"
      }
    }
  }

  # A Capacity Block for ML: market type capacity-block, into the block's reservation
  # (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-launch.html).
  dynamic "instance_market_options" {
    for_each = var.[=id(pool.var)]_capacity_block ? ["capacity-block"] : []

    content {
      market_type = "capacity-block"
    }
  }

  # The Capacity Reservation the nodes launch into: the Capacity Block's, or a targeted On-Demand
  # Capacity Reservation's.
  dynamic "capacity_reservation_specification" {
    for_each = var.[=id(pool.var)]_capacity_reservation_id == null ? [] : [var.[=id(pool.var)]_capacity_reservation_id]

    content {
      capacity_reservation_target {
        capacity_reservation_id = capacity_reservation_specification.value
      }
    }
  }

  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = var.metadata_http_tokens
    http_put_response_hop_limit = var.metadata_hop_limit
<#if terraform.pull>
    # Pull mode: the node reads the Lustre file system's address from its own tags (no
    # ec2:DescribeTags permission needed). Tag keys then must not contain "/", which none of
    # gpugen's do (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/work-with-tags-in-IMDS.html).
    instance_metadata_tags = var.lustre_enabled ? "enabled" : "disabled"
</#if>
  }

  root_block_device {
    volume_type           = var.[=id(pool.var)]_root_volume_type
    volume_size           = var.[=id(pool.var)]_root_volume_size_gib
    iops                  = var.[=id(pool.var)]_root_volume_iops
    throughput            = var.[=id(pool.var)]_root_volume_throughput
    encrypted             = var.[=id(pool.var)]_root_volume_encrypted
    kms_key_id            = var.kms_key_id
    delete_on_termination = true
  }

  tags = merge(local.tags, local.ssm_bucket_tag, local.lustre_tags, {
    Name          = "${var.cluster_name}-[=id(pool.name)]-${count.index}"
    "gpugen:pool" = [=hcl(pool.name)]
<#if terraform.eks && terraform.pull>
    # EC2 refuses a tag key with "/" on an instance whose metadata exposes its tags (pull mode with
    # Lustre, above): those nodes go without the cluster's ownership tag.
  }, var.lustre_enabled ? {} : local.eks_node_tags)
<#elseif terraform.eks>
  }, local.eks_node_tags)
<#else>
  })
</#if>

  lifecycle {
    # Neither a newer Ubuntu AMI nor an edit of the launch template (a tag, the security group,
    # metadata options) may replace running GPU nodes: a new template version would otherwise
    # force a new instance. Replace nodes on purpose, one at a time:
    # terraform apply -replace='aws_instance.POOL[INDEX]' (docs/terraform.md).
    ignore_changes = [ami, launch_template]

    precondition {
      condition     = var.[=id(pool.var)]_root_volume_throughput == null || var.[=id(pool.var)]_root_volume_type == "gp3"
      error_message = "Only gp3 root volumes take a throughput; pool [=id(pool.name)] has ${var.[=id(pool.var)]_root_volume_type}."
    }

    precondition {
      condition     = var.[=id(pool.var)]_root_volume_type == "gp2" ? var.[=id(pool.var)]_root_volume_iops == null : (!contains(["io1", "io2"], var.[=id(pool.var)]_root_volume_type) || var.[=id(pool.var)]_root_volume_iops != null)
      error_message = "Pool [=id(pool.name)]: gp2 root volumes take no iops, and io1 and io2 need them."
    }
  }
}
</#list>
