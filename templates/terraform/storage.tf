
locals {
  lustre_persistent = startswith(var.lustre_deployment_type, "PERSISTENT")

  # The file system, at whichever address retain_data keeps it (below); null without one.
  lustre = one(concat(aws_fsx_lustre_file_system.this, aws_fsx_lustre_file_system.unprotected))

  # Lustre's LNet port and the ports of its services, between the nodes (clients) and the file
  # servers, and among the file servers.
  lustre_ports = {
    lnet     = { from = 988, to = 988 }
    services = { from = 1018, to = 1023 }
  }

  # On every node: the address the Ansible role lustre_client mounts (DNS@tcp:/MOUNT_NAME).
  # gpugen-inventory reads these tags into gpugen_lustre_dns_name and gpugen_lustre_mount_name; a
  # node in pull mode reads them from its instance metadata. The nodes are created after the file
  # system, so the tags are there when a node first boots.
  lustre_tags = var.lustre_enabled ? {
    "gpugen:lustre-dns-name"   = local.lustre.dns_name
    "gpugen:lustre-mount-name" = local.lustre.mount_name
  } : {}

  # What AWS accepts, checked on the file system at either address.
  lustre_capacity_valid = (
    var.lustre_capacity_gib == null ? false
    : var.lustre_deployment_type == "SCRATCH_1"
    ? contains([1200, 2400], var.lustre_capacity_gib) || var.lustre_capacity_gib % 3600 == 0
    : var.lustre_capacity_gib == 1200 || var.lustre_capacity_gib % 2400 == 0
  )
  lustre_capacity_message = "FSx for Lustre ${var.lustre_deployment_type} takes 1200 GiB, 2400 GiB or a multiple of ${var.lustre_deployment_type == "SCRATCH_1" ? 3600 : 2400} GiB, not ${var.lustre_capacity_gib == null ? "none" : var.lustre_capacity_gib} (lustre_capacity_gib)."
  lustre_throughput_valid = (
    var.lustre_deployment_type == "PERSISTENT_1" ? contains([50, 100, 200], coalesce(var.lustre_per_unit_storage_throughput, 0))
    : var.lustre_deployment_type == "PERSISTENT_2" ? contains([125, 250, 500, 1000], coalesce(var.lustre_per_unit_storage_throughput, 0))
    : var.lustre_per_unit_storage_throughput == null
  )
  lustre_throughput_message = "FSx for Lustre throughput per TiB: PERSISTENT_1 takes 50, 100 or 200, PERSISTENT_2 125, 250, 500 or 1000, SCRATCH types none."

  # Daily automatic backups and a final backup when it is deleted, where FSx takes backups: on
  # PERSISTENT types; SCRATCH file systems have none
  # (https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateBackup.html). FSx skips the final
  # backup unless told otherwise
  # (https://docs.aws.amazon.com/fsx/latest/APIReference/API_DeleteFileSystemLustreConfiguration.html);
  # the provider reads the setting from state when it deletes, so it is set from the start.
  lustre_backup_days = local.lustre_persistent ? var.lustre_backup_retention_days : null
  lustre_skip_final  = !local.lustre_persistent

  # The checkpoint bucket, at whichever address retain_data keeps it; null without one.
  checkpoint_bucket = one(concat(aws_s3_bucket.checkpoint, aws_s3_bucket.checkpoint_unprotected))
}

################################################################################
# FSx for Lustre (lustre_enabled)
################################################################################

# The file system's security group. FSx cannot change a file system's groups (security_group_ids
# is ForceNew in the provider: hashicorp/terraform-provider-aws,
# internal/service/fsx/lustre_file_system.go), so a new group would mean a new file system: the
# group keeps the name it was created with (a renamed environment changes its Name tag only), what
# it allows is in the rules below, which change in place, and where it must be replaced (another
# VPC, which replaces the file system anyway) the new one comes first.
resource "aws_security_group" "lustre" {
  count = var.lustre_enabled ? 1 : 0

  name_prefix = "${local.name}-lustre-"
  description = "gpugen FSx for Lustre: Lustre traffic with the nodes and among the file servers"
  vpc_id      = local.vpc_id

  tags = {
    Name = "${local.name}-lustre"
  }

  lifecycle {
    create_before_destroy = true
    ignore_changes        = [name_prefix]
  }
}

resource "aws_vpc_security_group_ingress_rule" "lustre_from_nodes" {
  for_each = var.lustre_enabled ? local.lustre_ports : {}

  security_group_id            = aws_security_group.lustre[0].id
  referenced_security_group_id = aws_security_group.nodes.id
  ip_protocol                  = "tcp"
  from_port                    = each.value.from
  to_port                      = each.value.to
  description                  = "Lustre (${each.key}) from the nodes"
}

resource "aws_vpc_security_group_ingress_rule" "lustre_from_lustre" {
  for_each = var.lustre_enabled ? local.lustre_ports : {}

  security_group_id            = aws_security_group.lustre[0].id
  referenced_security_group_id = aws_security_group.lustre[0].id
  ip_protocol                  = "tcp"
  from_port                    = each.value.from
  to_port                      = each.value.to
  description                  = "Lustre (${each.key}) among the file servers"
}

resource "aws_vpc_security_group_egress_rule" "lustre_to_nodes" {
  for_each = var.lustre_enabled ? local.lustre_ports : {}

  security_group_id            = aws_security_group.lustre[0].id
  referenced_security_group_id = aws_security_group.nodes.id
  ip_protocol                  = "tcp"
  from_port                    = each.value.from
  to_port                      = each.value.to
  description                  = "Lustre (${each.key}) to the nodes"
}

resource "aws_vpc_security_group_egress_rule" "lustre_to_lustre" {
  for_each = var.lustre_enabled ? local.lustre_ports : {}

  security_group_id            = aws_security_group.lustre[0].id
  referenced_security_group_id = aws_security_group.lustre[0].id
  ip_protocol                  = "tcp"
  from_port                    = each.value.from
  to_port                      = each.value.to
  description                  = "Lustre (${each.key}) among the file servers"
}

resource "aws_vpc_security_group_ingress_rule" "nodes_from_lustre" {
  for_each = var.lustre_enabled ? local.lustre_ports : {}

  security_group_id            = aws_security_group.nodes.id
  referenced_security_group_id = aws_security_group.lustre[0].id
  ip_protocol                  = "tcp"
  from_port                    = each.value.from
  to_port                      = each.value.to
  description                  = "Lustre (${each.key}) from the file servers"
}

resource "aws_vpc_security_group_egress_rule" "nodes_to_lustre" {
  for_each = var.lustre_enabled ? local.lustre_ports : {}

  security_group_id            = aws_security_group.nodes.id
  referenced_security_group_id = aws_security_group.lustre[0].id
  ip_protocol                  = "tcp"
  from_port                    = each.value.from
  to_port                      = each.value.to
  description                  = "Lustre (${each.key}) to the file servers"
}

# The file system, retained (retain_data, from storage.retain; the default): Terraform refuses
# every plan that would delete it or replace it, whether by a removed storage.lustre, a smaller
# capacity, another deployment type, zone or KMS key, or terraform destroy. prevent_destroy takes
# no variable, so the file system has two addresses: this one, and "unprotected" below for
# storage.retain false, between which the render's moved.tf moves it (a move changes nothing in
# AWS). gpugen render names a change that would replace it.
resource "aws_fsx_lustre_file_system" "this" {
  count = var.lustre_enabled && var.retain_data ? 1 : 0

  storage_type                    = "SSD"
  storage_capacity                = var.lustre_capacity_gib
  deployment_type                 = var.lustre_deployment_type
  per_unit_storage_throughput     = local.lustre_persistent ? var.lustre_per_unit_storage_throughput : null
  kms_key_id                      = local.lustre_persistent ? var.kms_key_id : null
  subnet_ids                      = [local.subnet_id]
  security_group_ids              = [aws_security_group.lustre[0].id]
  copy_tags_to_backups            = true
  automatic_backup_retention_days = local.lustre_backup_days
  skip_final_backup               = local.lustre_skip_final

  tags = {
    Name = "${local.name}-lustre"
  }

  lifecycle {
    prevent_destroy = true

    precondition {
      condition     = local.lustre_capacity_valid
      error_message = local.lustre_capacity_message
    }

    precondition {
      condition     = local.lustre_throughput_valid
      error_message = local.lustre_throughput_message
    }
  }
}

# The same file system with storage.retain false: a plan may delete or replace it (a final backup
# is taken first on PERSISTENT types).
resource "aws_fsx_lustre_file_system" "unprotected" {
  count = var.lustre_enabled && !var.retain_data ? 1 : 0

  storage_type                    = "SSD"
  storage_capacity                = var.lustre_capacity_gib
  deployment_type                 = var.lustre_deployment_type
  per_unit_storage_throughput     = local.lustre_persistent ? var.lustre_per_unit_storage_throughput : null
  kms_key_id                      = local.lustre_persistent ? var.kms_key_id : null
  subnet_ids                      = [local.subnet_id]
  security_group_ids              = [aws_security_group.lustre[0].id]
  copy_tags_to_backups            = true
  automatic_backup_retention_days = local.lustre_backup_days
  skip_final_backup               = local.lustre_skip_final

  tags = {
    Name = "${local.name}-lustre"
  }

  lifecycle {
    precondition {
      condition     = local.lustre_capacity_valid
      error_message = local.lustre_capacity_message
    }

    precondition {
      condition     = local.lustre_throughput_valid
      error_message = local.lustre_throughput_message
    }
  }
}

################################################################################
# Checkpoint bucket (checkpoint_bucket)
################################################################################

# Retained like the file system (retain_data): Terraform refuses every plan that deletes or
# replaces the bucket (a removed or renamed checkpointBucket, terraform destroy), so no plan
# reaches its versioning, public-access block, TLS-only policy or lifecycle either: a refused plan
# changes nothing.
resource "aws_s3_bucket" "checkpoint" {
  count = var.checkpoint_bucket != null && var.retain_data ? 1 : 0

  bucket = var.checkpoint_bucket

  tags = {
    Name = var.checkpoint_bucket
  }

  lifecycle {
    prevent_destroy = true
  }
}

# The same bucket with storage.retain false: a plan may delete it, and then deletes every object
# and version in it first (force_destroy), since S3 deletes only an empty bucket.
resource "aws_s3_bucket" "checkpoint_unprotected" {
  count = var.checkpoint_bucket != null && !var.retain_data ? 1 : 0

  bucket        = var.checkpoint_bucket
  force_destroy = true

  tags = {
    Name = var.checkpoint_bucket
  }
}

resource "aws_s3_bucket_public_access_block" "checkpoint" {
  count = var.checkpoint_bucket == null ? 0 : 1

  bucket                  = local.checkpoint_bucket.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_ownership_controls" "checkpoint" {
  count = var.checkpoint_bucket == null ? 0 : 1

  bucket = local.checkpoint_bucket.id

  rule {
    object_ownership = "BucketOwnerEnforced"
  }
}

resource "aws_s3_bucket_versioning" "checkpoint" {
  count = var.checkpoint_bucket == null ? 0 : 1

  bucket = local.checkpoint_bucket.id

  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_bucket_server_side_encryption_configuration" "checkpoint" {
  count = var.checkpoint_bucket == null ? 0 : 1

  bucket = local.checkpoint_bucket.id

  rule {
    bucket_key_enabled = var.kms_key_id != null

    apply_server_side_encryption_by_default {
      sse_algorithm     = var.kms_key_id == null ? "AES256" : "aws:kms"
      kms_master_key_id = var.kms_key_id
    }
  }
}

# Versioning keeps every overwritten checkpoint; old versions go after a while.
resource "aws_s3_bucket_lifecycle_configuration" "checkpoint" {
  count = var.checkpoint_bucket == null ? 0 : 1

  bucket = local.checkpoint_bucket.id

  rule {
    id     = "expire-old-checkpoint-versions"
    status = "Enabled"

    filter {}

    noncurrent_version_expiration {
      noncurrent_days = var.checkpoint_noncurrent_version_days
    }

    abort_incomplete_multipart_upload {
      days_after_initiation = 7
    }
  }

  depends_on = [aws_s3_bucket_versioning.checkpoint]
}

data "aws_iam_policy_document" "checkpoint_bucket" {
  count = var.checkpoint_bucket == null ? 0 : 1

  statement {
    sid       = "DenyInsecureTransport"
    effect    = "Deny"
    actions   = ["s3:*"]
    resources = [local.checkpoint_bucket.arn, "${local.checkpoint_bucket.arn}/*"]

    principals {
      type        = "*"
      identifiers = ["*"]
    }

    condition {
      test     = "Bool"
      variable = "aws:SecureTransport"
      values   = ["false"]
    }
  }
}

resource "aws_s3_bucket_policy" "checkpoint" {
  count = var.checkpoint_bucket == null ? 0 : 1

  bucket = local.checkpoint_bucket.id
  policy = data.aws_iam_policy_document.checkpoint_bucket[0].json

  depends_on = [aws_s3_bucket_public_access_block.checkpoint]
}
