
provider "aws" {
  region = var.region

  default_tags {
    tags = local.tags
  }
}

locals {
  # Resource names start with the cluster's name, plus its environment when it has one, so that
  # dev and prod of one cluster can share an account and region (gpugen's plan writes it).
  name = var.qualified_name

  # On every resource (default_tags) and, with Name and gpugen:pool, on every node: the tag
  # scheme is the contract with `gpugen inventory`.
  tags = merge(
    {
      ManagedBy        = "gpugen"
      "gpugen:cluster" = var.cluster_name
    },
    var.environment == null ? {} : { "gpugen:environment" = var.environment },
  )
}
