
terraform {
  # removed and import blocks with for_each: Terraform 1.7.
  required_version = ">= 1.7.0"

  required_providers {
    # The schema gpugen's tests check every name against: google 6 (cdktf provider-google 16).
    google = {
      source  = "hashicorp/google"
      version = "~> 6.0"
    }
    # Not configured here: only so that a state from before the in-cluster/ root can be read while
    # gke-removed.tf forgets its objects (helm 3: its kubernetes connection is an argument).
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
