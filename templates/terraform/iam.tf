#
# The node role holds the least the nodes need: SSM Session Manager and read access to the
# checkpoint bucket (write access only with checkpoint_write_access).

data "aws_partition" "current" {}

data "aws_iam_policy_document" "nodes_assume_role" {
  statement {
    sid     = "EC2AssumeRole"
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["ec2.${data.aws_partition.current.dns_suffix}"]
    }
  }
}

# IAM names are global to the account: a prefix plus a generated suffix keeps clusters of the
# same name in two regions apart.
resource "aws_iam_role" "nodes" {
  name_prefix           = "${substr(local.name, 0, 30)}-nodes-"
  description           = "gpugen GPU nodes of cluster ${var.cluster_name}"
  assume_role_policy    = data.aws_iam_policy_document.nodes_assume_role.json
  permissions_boundary  = var.iam_permissions_boundary
  force_detach_policies = true
}

# Session Manager only, as AWS's minimal instance profile for it: not AmazonSSMManagedInstanceCore,
# whose ssm:GetParameter* on every parameter would let any node read every SSM parameter (secrets
# the operators keep there included).
# https://docs.aws.amazon.com/systems-manager/latest/userguide/getting-started-create-iam-instance-profile.html
data "aws_iam_policy_document" "nodes_session_manager" {
  statement {
    sid = "SessionManager"
    actions = [
      "ssm:UpdateInstanceInformation",
      "ssmmessages:CreateControlChannel",
      "ssmmessages:CreateDataChannel",
      "ssmmessages:OpenControlChannel",
      "ssmmessages:OpenDataChannel",
    ]
    resources = ["*"]
  }
}

resource "aws_iam_role_policy" "nodes_session_manager" {
  name   = "session-manager"
  role   = aws_iam_role.nodes.id
  policy = data.aws_iam_policy_document.nodes_session_manager.json
}

data "aws_iam_policy_document" "nodes_checkpoint" {
  count = var.checkpoint_bucket == null ? 0 : 1

  statement {
    sid       = "ListCheckpoints"
    actions   = ["s3:ListBucket", "s3:GetBucketLocation"]
    resources = [local.checkpoint_bucket.arn]
  }

  statement {
    sid       = "ReadCheckpoints"
    actions   = ["s3:GetObject", "s3:GetObjectVersion"]
    resources = ["${local.checkpoint_bucket.arn}/*"]
  }

  dynamic "statement" {
    for_each = var.checkpoint_write_access ? ["write"] : []

    content {
      sid       = "WriteCheckpoints"
      actions   = ["s3:PutObject", "s3:AbortMultipartUpload"]
      resources = ["${local.checkpoint_bucket.arn}/*"]
    }
  }

  dynamic "statement" {
    for_each = var.kms_key_id == null ? [] : ["kms"]

    content {
      sid       = "CheckpointKey"
      actions   = var.checkpoint_write_access ? ["kms:Decrypt", "kms:GenerateDataKey"] : ["kms:Decrypt"]
      resources = [var.kms_key_id]
    }
  }
}

resource "aws_iam_role_policy" "nodes_checkpoint" {
  count = var.checkpoint_bucket == null ? 0 : 1

  name   = "checkpoint-bucket"
  role   = aws_iam_role.nodes.id
  policy = data.aws_iam_policy_document.nodes_checkpoint[0].json
}

resource "aws_iam_instance_profile" "nodes" {
  name_prefix = "${substr(local.name, 0, 30)}-nodes-"
  role        = aws_iam_role.nodes.name
}
