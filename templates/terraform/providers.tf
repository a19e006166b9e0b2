
provider "aws" {
  region = var.region

  default_tags {
    tags = local.tags
  }
}

locals {
  # Resource names: the cluster, plus its environment when it has one, so that dev and prod of
  # one cluster can share an account and region.
  name = var.environment == null ? var.cluster_name : "${var.cluster_name}-${var.environment}"

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
