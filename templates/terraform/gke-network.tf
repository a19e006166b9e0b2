#
# The cluster's own VPC when gpugen creates the cluster (an existing cluster keeps its network):
# one subnet for the nodes, whose pods' and services' secondary ranges GKE adds and picks
# (ip_allocation_policy in gke-cluster.tf), Private Google Access for the private nodes, and Cloud
# NAT as their way out (images from nvcr.io, the driver container's packages) unless
# network.internet is none.

resource "google_compute_network" "this" {
  count = var.gke_create_cluster ? 1 : 0

  project                 = var.project
  name                    = var.gke_cluster_name
  auto_create_subnetworks = false
}

resource "google_compute_subnetwork" "nodes" {
  count = var.gke_create_cluster ? 1 : 0

  project                  = var.project
  region                   = var.region
  name                     = "${var.gke_cluster_name}-nodes"
  network                  = google_compute_network.this[0].id
  ip_cidr_range            = var.subnet_cidr
  private_ip_google_access = true
}

resource "google_compute_router" "nat" {
  count = var.gke_create_cluster && var.cloud_nat ? 1 : 0

  project = var.project
  region  = var.region
  name    = "${var.gke_cluster_name}-nat"
  network = google_compute_network.this[0].id
}

resource "google_compute_router_nat" "nat" {
  count = var.gke_create_cluster && var.cloud_nat ? 1 : 0

  project                            = var.project
  region                             = var.region
  name                               = "${var.gke_cluster_name}-nat"
  router                             = google_compute_router.nat[0].name
  nat_ip_allocate_option             = "AUTO_ONLY"
  source_subnetwork_ip_ranges_to_nat = "ALL_SUBNETWORKS_ALL_IP_RANGES"
}
