
provider "google" {
  project = var.project
  region  = var.region
}

# A zonal cluster: every GPU node in one zone, as compact placement needs. It is enrolled in a
# release channel, where GKE keeps node auto-upgrade on; the maintenance exclusion holds minor and
# node upgrades (a driver must not change under a training job) until var.gke_hold_upgrades_until,
# while the control plane still gets its patches. Private nodes, and an endpoint reachable only
# from the authorized networks (or only privately).
resource "google_container_cluster" "this" {
  count = var.gke_create_cluster ? 1 : 0

  project    = var.project
  name       = var.gke_cluster_name
  location   = var.zone
  network    = google_compute_network.this[0].id
  subnetwork = google_compute_subnetwork.nodes[0].id

  remove_default_node_pool = true
  initial_node_count       = 1
  deletion_protection      = true
  min_master_version       = var.gke_version

  release_channel {
    channel = var.gke_release_channel
  }

  # The google provider takes exclusions only beside exactly one window (ExactlyOneOf
  # daily_maintenance_window / recurring_window in resource_container_cluster.go): four hours from
  # 03:00 UTC each day, when the control plane's patches may land.
  maintenance_policy {
    daily_maintenance_window {
      start_time = "03:00"
    }

    maintenance_exclusion {
      exclusion_name = "gpugen-hold-minor-and-node-upgrades"
      start_time     = terraform_data.upgrade_hold_start[0].output
      end_time       = "${var.gke_hold_upgrades_until}T00:00:00Z"

      exclusion_options {
        scope = "NO_MINOR_OR_NODE_UPGRADES"
      }
    }
  }

  # VPC-native, with the pods' and services' ranges GKE picks in the subnet.
  ip_allocation_policy {}

  private_cluster_config {
    enable_private_nodes    = true
    enable_private_endpoint = var.gke_private_endpoint
  }

  master_authorized_networks_config {
    gcp_public_cidrs_access_enabled = false

    dynamic "cidr_blocks" {
      for_each = var.gke_authorized_networks
      content {
        cidr_block   = cidr_blocks.value
        display_name = "gpugen ${cidr_blocks.key}"
      }
    }
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

# When the hold starts: the first apply's time, kept in state so that later plans change nothing.
resource "terraform_data" "upgrade_hold_start" {
  count = var.gke_create_cluster ? 1 : 0

  input = timestamp()

  lifecycle {
    ignore_changes = [input]
  }
}

data "google_container_cluster" "existing" {
  count = var.gke_create_cluster ? 0 : 1

  project  = var.project
  name     = var.gke_cluster_name
  location = var.zone

  # The node pools run the GKE metadata server (workload_metadata_config GKE_METADATA), which
  # GKE refuses on a cluster without Workload Identity: say so before any pool is created
  # (https://cloud.google.com/kubernetes-engine/docs/how-to/workload-identity).
  lifecycle {
    postcondition {
      condition     = try(self.workload_identity_config[0].workload_pool, "") != ""
      error_message = "The existing GKE cluster has no Workload Identity, which gpugen's node pools (GKE_METADATA) need: gcloud container clusters update ${var.gke_cluster_name} --zone ${var.zone} --project ${var.project} --workload-pool=${var.project}.svc.id.goog, then apply again."
    }
  }
}

locals {
  gke_name = var.gke_create_cluster ? google_container_cluster.this[0].name : data.google_container_cluster.existing[0].name
}
