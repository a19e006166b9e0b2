
output "gke_cluster_name" {
  description = "The GKE cluster the node pools are in."
  value       = local.gke_name
}

output "node_pools" {
  description = "Node pool names by spec pool."
  value       = { for name, pool in google_container_node_pool.pools : name => pool.name }
}
