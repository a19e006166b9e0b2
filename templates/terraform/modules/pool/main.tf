#
# One pool of GPU nodes, as the root module's var.pools describes it (one call per pool, keyed by
# the pool's name): its placement group, its launch template (every network interface of the
# instance type, IMDS, user data) and its instances, one per node key.

# One placement group per pool: AWS advises one instance type per cluster placement group,
# launched together, for the best chance of capacity; none with placement_strategy none, and none
# for a pool launched into a Capacity Reservation (the plan writes no group name for it: EC2
# places a Capacity Block's instances in an UltraCluster itself, and a reservation made outside
# this group cannot serve instances asked for inside it). (The root module's output
# placement_groups checks the strategy against every pool.)
#
# EC2 changes neither a group's name nor its strategy, and refuses to delete a group that holds
# instances. The plan's name carries the strategy (but for cluster), so another strategy is another
# group: created first (create_before_destroy), the nodes replaced into it (the group is one of
# their settings), the old group deleted after its last instance.
resource "aws_placement_group" "this" {
  count = var.placement_group == null || var.placement_strategy == "none" ? 0 : 1

  name     = var.placement_group
  strategy = var.placement_strategy

  tags = {
    "gpugen:pool" = var.name
  }

  lifecycle {
    create_before_destroy = true
  }
}

# What the nodes are launched with and cannot change in place (the root module builds them in pools.tf):
# a change replaces this object, and with it every node of the pool (replace_triggered_by below),
# so a new instance type or fabric reaches the nodes as new instances with the launch template's
# interfaces, not as a stop, modify and start that keeps the interfaces they launched with (and
# that a one-time spot instance cannot take at all). The root's
# terraform_data.node_replacement_guard refuses such a plan unless it was allowed.
resource "terraform_data" "replacement" {
  triggers_replace = var.settings
}

# The launch template carries what aws_instance cannot say itself: every network interface of
# the instance type.
resource "aws_launch_template" "this" {
  name_prefix            = var.launch_template_name_prefix
  description            = "gpugen pool ${var.name}: network interfaces and metadata options of its nodes"
  update_default_version = true
  user_data              = var.user_data

  dynamic "network_interfaces" {
    for_each = var.network_interfaces

    content {
      network_card_index          = network_interfaces.value.network_card_index
      device_index                = 0
      interface_type              = network_interfaces.value.interface_type
      subnet_id                   = var.subnet_id
      security_groups             = var.security_group_ids
      associate_public_ip_address = false
      delete_on_termination       = true
    }
  }

  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = var.metadata_http_tokens
    http_put_response_hop_limit = var.metadata_hop_limit
    instance_metadata_tags      = var.instance_metadata_tags
  }

  tag_specifications {
    resource_type = "volume"
    tags          = merge(var.tags, { "gpugen:pool" = var.name })
  }

  tag_specifications {
    resource_type = "network-interface"
    tags          = merge(var.tags, { "gpugen:pool" = var.name })
  }

  tags = {
    "gpugen:pool" = var.name
  }
}

# One instance per node key ("0", "1", ...): a key names its node for good, so removing one key
# removes that node and leaves the others' addresses (and instances) alone.
resource "aws_instance" "this" {
  for_each = var.nodes

  ami                  = var.ami_id
  instance_type        = var.instance_type
  key_name             = var.key_name
  iam_instance_profile = var.iam_instance_profile
  placement_group      = one(aws_placement_group.this[*].name)
  ebs_optimized        = true
  monitoring           = true

  launch_template {
    id      = aws_launch_template.this.id
    version = aws_launch_template.this.latest_version
  }

  dynamic "instance_market_options" {
    for_each = var.market == "spot" ? ["spot"] : []

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
    for_each = var.market == "capacity-block" ? ["capacity-block"] : []

    content {
      market_type = "capacity-block"
    }
  }

  # The Capacity Reservation the nodes launch into: the Capacity Block's, or a targeted On-Demand
  # Capacity Reservation's.
  dynamic "capacity_reservation_specification" {
    for_each = var.capacity_reservation_id == null ? [] : [var.capacity_reservation_id]

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
    instance_metadata_tags      = var.instance_metadata_tags
  }

  root_block_device {
    volume_type           = var.root_volume.type
    volume_size           = var.root_volume.size_gib
    iops                  = var.root_volume.iops
    throughput            = var.root_volume.throughput
    encrypted             = var.root_volume.encrypted
    kms_key_id            = var.kms_key_id
    delete_on_termination = true
  }

  tags = merge(var.tags, var.node_tags, var.role == null ? {} : { "gpugen:role" = var.role }, {
    Name          = each.value
    "gpugen:pool" = var.name
  })

  lifecycle {
    # A change of the pool's settings (image, instance type, interfaces, subnet, key pair, market,
    # placement group, ...) replaces the nodes through terraform_data.replacement, guarded by its
    # precondition. Only that: the AMI is the one the root module resolved once (pools.tf,
    # terraform_data.image), so ignoring it matters only for nodes launched before gpugen kept it;
    # and a new launch template version (user data, labels, metadata options) reaches new nodes
    # only, where replacing running GPU nodes for it would be the wrong trade (gpugen drift lists
    # each node's template version). Replace one node on purpose:
    # terraform apply -replace='module.pool["POOL"].aws_instance.this["KEY"]' (docs/terraform.md).
    ignore_changes = [ami, launch_template]

    replace_triggered_by = [terraform_data.replacement]

    precondition {
      condition     = var.root_volume.throughput == null || var.root_volume.type == "gp3"
      error_message = "Only gp3 root volumes take a throughput; pool ${var.name} has ${var.root_volume.type}."
    }

    precondition {
      condition     = var.root_volume.type == "gp2" ? var.root_volume.iops == null : (!contains(["io1", "io2"], var.root_volume.type) || var.root_volume.iops != null)
      error_message = "Pool ${var.name}: gp2 root volumes take no iops, and io1 and io2 need them."
    }
  }
}
