#
# What the next steps read: the nodes' addresses per pool (the Ansible inventory, also built by
# `gpugen inventory` from the tags), and the Lustre file system to mount.

output "vpc_id" {
  description = "VPC of the cluster."
  value       = local.vpc_id
}

output "subnet_id" {
  description = "Subnet of the nodes and the Lustre file system."
  value       = local.subnet_id
}

output "node_security_group_id" {
  description = "Security group of the nodes (EFA traffic among its members)."
  value       = aws_security_group.nodes.id
}

output "node_role_arn" {
  description = "IAM role of the nodes."
  value       = aws_iam_role.nodes.arn
}

output "ami_id" {
  description = "AMI the nodes launch from: resolved once and kept in state (terraform_data.image), so it changes only with the spec's image (or EKS's Kubernetes minor), which replaces the nodes onto it. gpugen drift lists the image each node runs."
  value       = local.ami_id
}

output "instance_ids" {
  description = "Instance ids by pool, then by node key."
  value       = { for name, pool in module.pool : name => pool.instance_ids }
}

output "private_ips" {
  description = "Private IPv4 addresses by pool, then by node key."
  value       = { for name, pool in module.pool : name => pool.private_ips }
}

output "placement_groups" {
  description = "Placement group by GPU pool; null with placement_strategy none."
  value       = { for name, pool in module.pool : name => pool.placement_group if var.pools[name].role == null }

  # Only pools with a group count: a pool launched into a Capacity Reservation has none.
  precondition {
    condition     = var.placement_strategy != "spread" || alltrue([for p in values(var.pools) : p.placement_group == null || length(p.nodes) <= 7])
    error_message = "A spread placement group holds at most 7 running instances per availability zone; pools ${join(", ", [for name, p in var.pools : name if p.placement_group != null && length(p.nodes) > 7])} ask for more."
  }
}

output "lustre_dns_name" {
  description = "DNS name of the FSx for Lustre file system; null without one."
  value       = local.lustre == null ? null : local.lustre.dns_name
}

output "lustre_mount_name" {
  description = "Mount name of the FSx for Lustre file system (mount -t lustre DNS@tcp:/MOUNT_NAME); null without one."
  value       = local.lustre == null ? null : local.lustre.mount_name
}

output "lustre_mount_point" {
  description = "Where the nodes mount the file system; null without one."
  value       = var.lustre_enabled ? var.lustre_mount_point : null
}

output "checkpoint_bucket" {
  description = "Name of the checkpoint bucket; null without one."
  value       = local.checkpoint_bucket == null ? null : local.checkpoint_bucket.id
}

output "ssm_bucket" {
  description = "The bucket the SSM connection moves files through (gpugen:ssm-bucket on every node); null without connection ssm."
  value       = one(aws_s3_bucket.ssm[*].bucket)
}
