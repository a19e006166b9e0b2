#
# The provider comes from the root module, which pins its version (versions.tf there).

terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}
