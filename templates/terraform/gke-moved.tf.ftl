[=header]
#
# Where the layout before pools were keyed by name kept each node pool: one resource per pool,
# labelled with the pool's name ('-' as '_'). These blocks move them in state to
# google_container_node_pool.pools, so upgrading gpugen replaces no node pool (docs/gke.md). They
# only declare; keep them as long as some state may predate the layout.
<#list terraform.moves as m>

moved {
  from = google_container_node_pool.[=id(m.previous)]
  to   = google_container_node_pool.pools[[=hcl(m.name)]]
}
</#list>
