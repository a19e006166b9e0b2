[=header]
#
# The state in S3 with S3-native locking: use_lockfile writes a .tflock object beside the state
# with a conditional write, so two runs cannot apply at once and no DynamoDB table is needed
# (Terraform 1.10 and newer; DynamoDB locking is deprecated:
# https://developer.hashicorp.com/terraform/language/backend/s3). The bucket must exist; keep
# versioning on it so an overwritten state can be recovered.
<#assign s3 = terraform.s3Backend>

terraform {
  required_version = ">= 1.10.0"

  backend "s3" {
    bucket       = [=hcl(s3.bucket)]
    key          = [=hcl(s3.key)]
    region       = [=hcl(s3.region)]
    encrypt      = true
    use_lockfile = true
  }
}
