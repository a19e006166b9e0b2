#
# The S3 bucket the SSM connection (community.aws.aws_ssm) moves files through: Ansible uploads
# each module with the controller's credentials and the node fetches it through a presigned URL.
# Made only for connection ssm (ssm_bucket_prefix set). Its name is fixed by the render:
# ssm_bucket_prefix, the account id and the region, which gpugen-inventory computes the same way
# from its settings and each instance's account and region (S3 names are global: a name merely
# starting with the prefix could be anyone's, so no tag is trusted for it). The nodes carry it as
# gpugen:ssm-bucket for people to read, which also makes every node wait for the bucket.
# Objects live for minutes; the lifecycle rule removes leftovers of interrupted runs.

data "aws_caller_identity" "ssm" {
  count = var.ssm_bucket_prefix == null ? 0 : 1
}

resource "aws_s3_bucket" "ssm" {
  count = var.ssm_bucket_prefix == null ? 0 : 1

  bucket = "${var.ssm_bucket_prefix}${data.aws_caller_identity.ssm[0].account_id}-${var.region}"
  # Transfer scratch only: terraform destroy empties it instead of failing on leftovers.
  force_destroy = true

  tags = {
    Name = "${local.name}-ssm"
  }
}

resource "aws_s3_bucket_public_access_block" "ssm" {
  count = var.ssm_bucket_prefix == null ? 0 : 1

  bucket                  = aws_s3_bucket.ssm[0].id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_ownership_controls" "ssm" {
  count = var.ssm_bucket_prefix == null ? 0 : 1

  bucket = aws_s3_bucket.ssm[0].id

  rule {
    object_ownership = "BucketOwnerEnforced"
  }
}

resource "aws_s3_bucket_server_side_encryption_configuration" "ssm" {
  count = var.ssm_bucket_prefix == null ? 0 : 1

  bucket = aws_s3_bucket.ssm[0].id

  rule {
    bucket_key_enabled = var.kms_key_id != null

    apply_server_side_encryption_by_default {
      sse_algorithm     = var.kms_key_id == null ? "AES256" : "aws:kms"
      kms_master_key_id = var.kms_key_id
    }
  }
}

resource "aws_s3_bucket_lifecycle_configuration" "ssm" {
  count = var.ssm_bucket_prefix == null ? 0 : 1

  bucket = aws_s3_bucket.ssm[0].id

  rule {
    id     = "expire-transfers"
    status = "Enabled"

    filter {}

    expiration {
      days = 1
    }

    abort_incomplete_multipart_upload {
      days_after_initiation = 1
    }
  }
}

data "aws_iam_policy_document" "ssm_bucket" {
  count = var.ssm_bucket_prefix == null ? 0 : 1

  statement {
    sid       = "DenyInsecureTransport"
    effect    = "Deny"
    actions   = ["s3:*"]
    resources = [aws_s3_bucket.ssm[0].arn, "${aws_s3_bucket.ssm[0].arn}/*"]

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

resource "aws_s3_bucket_policy" "ssm" {
  count = var.ssm_bucket_prefix == null ? 0 : 1

  bucket = aws_s3_bucket.ssm[0].id
  policy = data.aws_iam_policy_document.ssm_bucket[0].json

  depends_on = [aws_s3_bucket_public_access_block.ssm]
}

locals {
  # On every node: where gpugen-inventory reads the bucket's name from.
  ssm_bucket_tag = var.ssm_bucket_prefix == null ? {} : { "gpugen:ssm-bucket" = aws_s3_bucket.ssm[0].bucket }
}
