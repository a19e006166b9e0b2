[=header]
#
# Where the layout before pools were keyed by name kept each pool's resources: one resource per
# pool, labelled with the pool's name ('-' as '_'), its nodes counted from 0. These blocks move
# them in state to the addresses of modules/pool, so upgrading gpugen replaces no node
# (docs/terraform.md). They only declare; keep them as long as some state may predate the layout.
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
