#
# The nodes' own service account with the one role GKE needs for a node (logging, monitoring,
# metadata), instead of the Compute Engine default service account, which has Editor on the
# project in many projects. The scope stays cloud-platform: IAM, not scopes, limits what the
# account may do.

resource "google_service_account" "nodes" {
  project      = var.project
  account_id   = var.node_service_account_id
  display_name = "GKE nodes of ${var.gke_cluster_name} (gpugen)"
}

resource "google_project_iam_member" "nodes" {
  project = var.project
  role    = "roles/container.defaultNodeServiceAccount"
  member  = "serviceAccount:${google_service_account.nodes.email}"
}
