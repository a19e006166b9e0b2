
provider "google" {
  project = var.project
  region  = var.region
}

# A zonal cluster: every GPU node in one zone, as compact placement needs. Release channel
# UNSPECIFIED because the GPU node pools turn auto-upgrade off (a driver must not change under a
# training job), which GKE allows only outside release channels.
resource "google_container_cluster" "this" {
  count = var.gke_create_cluster ? 1 : 0

  project  = var.project
  name     = var.gke_cluster_name
  location = var.zone

  remove_default_node_pool = true
  initial_node_count       = 1
  deletion_protection      = true

  release_channel {
    channel = "UNSPECIFIED"
  }

  workload_identity_config {
    workload_pool = "${var.project}.svc.id.goog"
  }

  # The environment, where the spec names one, as the AWS resources carry gpugen:environment.
  resource_labels = merge(
    {
      gpugen-cluster    = var.cluster_name
      gpugen-managed-by = "gpugen"
    },
    var.environment == null ? {} : { gpugen-environment = var.environment },
  )
}

data "google_container_cluster" "existing" {
  count = var.gke_create_cluster ? 0 : 1

  project  = var.project
  name     = var.gke_cluster_name
  location = var.zone
}

data "google_client_config" "current" {}

locals {
  gke_name     = var.gke_create_cluster ? google_container_cluster.this[0].name : data.google_container_cluster.existing[0].name
  gke_endpoint = var.gke_create_cluster ? google_container_cluster.this[0].endpoint : data.google_container_cluster.existing[0].endpoint
  gke_ca       = var.gke_create_cluster ? google_container_cluster.this[0].master_auth[0].cluster_ca_certificate : data.google_container_cluster.existing[0].master_auth[0].cluster_ca_certificate
}

provider "kubernetes" {
  host                   = "https://${local.gke_endpoint}"
  token                  = data.google_client_config.current.access_token
  cluster_ca_certificate = base64decode(local.gke_ca)
}

provider "helm" {
  kubernetes = {
    host                   = "https://${local.gke_endpoint}"
    token                  = data.google_client_config.current.access_token
    cluster_ca_certificate = base64decode(local.gke_ca)
  }
}
