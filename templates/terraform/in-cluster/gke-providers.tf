#
# What runs on the cluster, in a root module of its own, applied after the cluster's (../): its
# kubernetes and helm providers are configured from a data source of a cluster that exists
# already, never from a resource of the same configuration, which HashiCorp's kubernetes provider
# documentation warns against (unknown credentials at plan time, a replaced cluster).

provider "google" {
  project = var.project
  region  = var.region
}

data "google_container_cluster" "this" {
  project  = var.project
  name     = var.gke_cluster_name
  location = var.zone
}

data "google_client_config" "current" {}

provider "kubernetes" {
  host                   = "https://${data.google_container_cluster.this.endpoint}"
  token                  = data.google_client_config.current.access_token
  cluster_ca_certificate = base64decode(data.google_container_cluster.this.master_auth[0].cluster_ca_certificate)
}

provider "helm" {
  kubernetes = {
    host                   = "https://${data.google_container_cluster.this.endpoint}"
    token                  = data.google_client_config.current.access_token
    cluster_ca_certificate = base64decode(data.google_container_cluster.this.master_auth[0].cluster_ca_certificate)
  }
}
