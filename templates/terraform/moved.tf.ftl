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

# Pool [=hcl(r.from)] was renamed [=hcl(r.to)] (pools[].renamedFrom): its nodes, launch template,
# placement group, replacement guard and recorded settings move to the new key, none of them
# replaced.
moved {
  from = module.pool[[=hcl(r.from)]]
  to   = module.pool[[=hcl(r.to)]]
}

moved {
  from = terraform_data.node_replacement_guard[[=hcl(r.from)]]
  to   = terraform_data.node_replacement_guard[[=hcl(r.to)]]
}

moved {
  from = terraform_data.recorded_node_settings[[=hcl(r.from)]]
  to   = terraform_data.recorded_node_settings[[=hcl(r.to)]]
}
</#list>
<#-- Written whether or not the spec has the file system or the bucket: a move of an object the
     state lacks does nothing, and the .tf files then differ only by the spec's pools. -->
<#if terraform.retainData>

# storage.retain true: the file system and the checkpoint bucket at their protected addresses
# (storage.tf).
moved {
  from = aws_fsx_lustre_file_system.unprotected[0]
  to   = aws_fsx_lustre_file_system.this[0]
}

moved {
  from = aws_s3_bucket.checkpoint_unprotected[0]
  to   = aws_s3_bucket.checkpoint[0]
}
<#else>

# storage.retain false: the file system and the checkpoint bucket where a plan may delete them
# (storage.tf).
moved {
  from = aws_fsx_lustre_file_system.this[0]
  to   = aws_fsx_lustre_file_system.unprotected[0]
}

moved {
  from = aws_s3_bucket.checkpoint[0]
  to   = aws_s3_bucket.checkpoint_unprotected[0]
}
</#if>
