[=header]
#
# Where the layout before pools were keyed by name kept each pool's resources: one resource per
# pool, labelled with the pool's name ('-' as '_'), its nodes counted from 0. These blocks move
# them in state to the addresses of modules/pool, so upgrading gpugen replaces no node
# (docs/terraform.md). They only declare; keep them as long as some state may predate the layout.
# After them, the moves of this spec's own history: renamed pools, and the FSx file system and the
# checkpoint bucket to the addresses storage.retain chooses.
<#list terraform.moves as m>

moved {
  from = aws_launch_template.[=id(m.previous)]
  to   = module.pool[[=hcl(m.name)]].aws_launch_template.this
}

moved {
  from = aws_placement_group.[=id(m.previous)]
  to   = module.pool[[=hcl(m.name)]].aws_placement_group.this
}
<#list m.nodes as n>

moved {
  from = aws_instance.[=id(m.previous)][[=n.index]]
  to   = module.pool[[=hcl(m.name)]].aws_instance.this[[=hcl(n.key)]]
}
</#list>
</#list>
<#list terraform.renames as r>

# Pool [=hcl(r.from)] was renamed [=hcl(r.to)] (pools[].renamedFrom): its nodes, launch template
# and placement group move to the new key, none of them replaced.
moved {
  from = module.pool[[=hcl(r.from)]]
  to   = module.pool[[=hcl(r.to)]]
}
</#list>
<#if terraform.lustre>
<#if terraform.retainData>

# storage.retain true: the file system at its protected address (storage.tf).
moved {
  from = aws_fsx_lustre_file_system.unprotected[0]
  to   = aws_fsx_lustre_file_system.this[0]
}
<#else>

# storage.retain false: the file system where a plan may delete it (storage.tf).
moved {
  from = aws_fsx_lustre_file_system.this[0]
  to   = aws_fsx_lustre_file_system.unprotected[0]
}
</#if>
</#if>
<#if terraform.checkpointBucket>
<#if terraform.retainData>

# storage.retain true: the checkpoint bucket at its protected address (storage.tf).
moved {
  from = aws_s3_bucket.checkpoint_unprotected[0]
  to   = aws_s3_bucket.checkpoint[0]
}
<#else>

# storage.retain false: the checkpoint bucket where a plan may delete it (storage.tf).
moved {
  from = aws_s3_bucket.checkpoint[0]
  to   = aws_s3_bucket.checkpoint_unprotected[0]
}
</#if>
</#if>
