#
# Pull mode (ansible.mode: pull, pull_source set): every node applies the rendered ansible/ folder
# to itself at boot (user-data-<pool>.sh in each pool's launch template, pools.tf) and reports its
# validation result. The node role gets only what that needs: read the bundle, write its report,
# tag itself. Nothing without pull mode.

locals {
  # The rendered ansible/ folder beside this one: exactly the files the render wrote there (those
  # the user data's digest lists), never what a push run leaves (fact cache, kubeconfig, reports)
  # or a file of yours.
  pull_bundle_root  = "${path.module}/../ansible"
  pull_bundle_files = var.pull_source == "s3" ? toset(var.pull_bundle_files) : toset([])

  pull_reports_to_s3 = var.pull_source != null && var.checkpoint_bucket != null
}

# source_hash, not etag: with a KMS key on the bucket the ETag is not the file's MD5, and an etag
# argument would then show a change on every plan.
resource "aws_s3_object" "pull_bundle" {
  for_each = local.pull_bundle_files

  bucket      = local.checkpoint_bucket.id
  key         = "${var.pull_bundle_prefix}/${each.value}"
  source      = "${local.pull_bundle_root}/${each.value}"
  source_hash = filemd5("${local.pull_bundle_root}/${each.value}")
  kms_key_id  = var.kms_key_id
}

data "aws_caller_identity" "current" {
  count = var.pull_source == null ? 0 : 1
}

data "aws_iam_policy_document" "nodes_pull" {
  count = var.pull_source == null ? 0 : 1

  # The bundle in the checkpoint bucket (pull_source s3).
  dynamic "statement" {
    for_each = var.pull_source == "s3" ? ["list"] : []

    content {
      sid       = "ListBundle"
      actions   = ["s3:ListBucket"]
      resources = [local.checkpoint_bucket.arn]

      condition {
        test     = "StringLike"
        variable = "s3:prefix"
        values   = ["${var.pull_bundle_prefix}/*"]
      }
    }
  }

  dynamic "statement" {
    for_each = var.pull_source == "s3" ? ["read"] : []

    content {
      sid       = "ReadBundle"
      actions   = ["s3:GetObject"]
      resources = ["${local.checkpoint_bucket.arn}/${var.pull_bundle_prefix}/*"]
    }
  }

  # Every booting node runs the bundle as root, so no node may change any bundle, this one or a
  # later one: an explicit deny wins over every allow of the role, checkpoint_write_access's
  # s3:PutObject on the whole bucket included.
  # https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html
  dynamic "statement" {
    for_each = var.pull_source == "s3" ? ["deny"] : []

    content {
      sid    = "BundlesAreReadOnly"
      effect = "Deny"
      actions = [
        "s3:PutObject",
        "s3:PutObjectAcl",
        "s3:PutObjectTagging",
        "s3:DeleteObject",
        "s3:DeleteObjectVersion",
        "s3:RestoreObject",
      ]
      resources = ["${local.checkpoint_bucket.arn}/${dirname(var.pull_bundle_prefix)}/*"]
    }
  }

  # Only its own report: for an instance profile's credentials IAM resolves aws:userid to
  # "<role id>:<instance id>", so no node can write or overwrite another node's report.
  # https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_variables.html
  dynamic "statement" {
    for_each = local.pull_reports_to_s3 ? ["report"] : []

    content {
      sid       = "WriteReport"
      actions   = ["s3:PutObject"]
      resources = ["${local.checkpoint_bucket.arn}/${var.pull_reports_prefix}/$${aws:userid}.json"]
    }
  }

  dynamic "statement" {
    for_each = local.pull_reports_to_s3 && var.kms_key_id != null ? ["kms"] : []

    content {
      sid       = "ReportKey"
      actions   = ["kms:GenerateDataKey"]
      resources = [var.kms_key_id]
    }
  }

  # Only its own instance (the ec2:SourceInstanceARN policy variable is the calling instance's
  # ARN), only one of this cluster's, and only the gpugen:validation tag with a result value.
  statement {
    sid       = "TagSelf"
    actions   = ["ec2:CreateTags"]
    resources = ["$${ec2:SourceInstanceARN}"]

    condition {
      test     = "StringEquals"
      variable = "ec2:ResourceTag/gpugen:cluster"
      values   = [var.cluster_name]
    }

    condition {
      test     = "ArnLike"
      variable = "ec2:SourceInstanceARN"
      values   = ["arn:${data.aws_partition.current.partition}:ec2:${var.region}:${data.aws_caller_identity.current[0].account_id}:instance/i-*"]
    }

    condition {
      test     = "ForAllValues:StringEquals"
      variable = "aws:TagKeys"
      values   = ["gpugen:validation"]
    }

    condition {
      test     = "StringEquals"
      variable = "aws:RequestTag/gpugen:validation"
      values   = ["passed", "failed"]
    }
  }
}

resource "aws_iam_role_policy" "nodes_pull" {
  count = var.pull_source == null ? 0 : 1

  name   = "gpugen-pull"
  role   = aws_iam_role.nodes.id
  policy = data.aws_iam_policy_document.nodes_pull[0].json
}

# The address of the layout before pull_source null meant no pull mode.
moved {
  from = aws_iam_role_policy.nodes_pull
  to   = aws_iam_role_policy.nodes_pull[0]
}
