
terraform {
  # check blocks (the version gate's warnings) need Terraform 1.5.
  required_version = ">= 1.5.0"

  required_providers {
    # 6.25 is the provider release whose schema gpugen's tests check every name against;
    # efa-only network interfaces need 5.74 or newer.
    aws = {
      source  = "hashicorp/aws"
      version = "~> 6.25"
    }
  }
}
