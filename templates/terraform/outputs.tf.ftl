[=header]
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
  description = "AMI the nodes were launched from."
  value       = local.ami_id
}
<#list terraform.pools as pool>

output "[=id(pool.var)]_instance_ids" {
  description = [=hcl("Instance ids of pool " + pool.name + ", by index.")]
  value       = aws_instance.[=id(pool.var)][*].id
}

output "[=id(pool.var)]_private_ips" {
  description = [=hcl("Private IPv4 addresses of pool " + pool.name + ", by index.")]
  value       = aws_instance.[=id(pool.var)][*].private_ip
}

output "[=id(pool.var)]_placement_group" {
  description = [=hcl("Placement group of pool " + pool.name + "; null with placement_strategy none.")]
  value       = one(aws_placement_group.[=id(pool.var)][*].name)
}
</#list>

output "lustre_dns_name" {
  description = "DNS name of the FSx for Lustre file system; null without one."
  value       = one(aws_fsx_lustre_file_system.this[*].dns_name)
}

output "lustre_mount_name" {
  description = "Mount name of the FSx for Lustre file system (mount -t lustre DNS@tcp:/MOUNT_NAME); null without one."
  value       = one(aws_fsx_lustre_file_system.this[*].mount_name)
}

output "lustre_mount_point" {
  description = "Where the nodes mount the file system; null without one."
  value       = var.lustre_enabled ? var.lustre_mount_point : null
}

output "checkpoint_bucket" {
  description = "Name of the checkpoint bucket; null without one."
  value       = one(aws_s3_bucket.checkpoint[*].id)
}

output "ssm_bucket" {
  description = "The bucket the SSM connection moves files through (gpugen:ssm-bucket on every node); null without connection ssm."
  value       = one(aws_s3_bucket.ssm[*].bucket)
}
