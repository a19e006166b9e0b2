
terraform {
  # check blocks need Terraform 1.5.
  required_version = ">= 1.5.0"

  required_providers {
    # The range gpugen's tests prove: every render is planned with the real 5.100 provider
    # (6.0 changed defaults and removed arguments; it is not planned yet).
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.100, < 6.0"
    }
  }
}
