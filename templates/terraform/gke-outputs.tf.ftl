[=header]

output "gke_cluster_name" {
  description = "The GKE cluster the node pools are in."
  value       = local.gke_name
}

output "node_pools" {
  description = "Node pool names by spec pool."
  value = {
<#-- terraform fmt aligns the "=" of consecutive keys one space after the longest. -->
<#assign keyWidth = 0>
<#list terraform.pools as pool><#assign keyWidth = [keyWidth, hcl(pool.name)?markup_string?length]?max></#list>
<#list terraform.pools as pool>
    [=hcl(pool.name)]<#list 0..<(keyWidth - hcl(pool.name)?markup_string?length) as i> </#list> = google_container_node_pool.[=id(pool.var)].name
</#list>
  }
}
