
terraform {
  # import blocks with for_each: Terraform 1.7.
  required_version = ">= 1.7.0"

  required_providers {
    # The schemas gpugen's tests check every name against: google 6 (cdktf provider-google 16),
    # helm 3 (whose kubernetes connection is an argument, not a block) and kubernetes 2.
    google = {
      source  = "hashicorp/google"
      version = "~> 6.0"
    }
    helm = {
      source  = "hashicorp/helm"
      version = "~> 3.0"
    }
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = "~> 2.30"
    }
  }
}
