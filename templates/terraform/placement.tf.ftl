[=header]
#
# One placement group per pool: AWS advises one instance type per cluster placement group,
# launched together, for the best chance of capacity. None for a pool launched into a Capacity
# Reservation: EC2 places a Capacity Block's instances in an UltraCluster itself
# (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-using.html), and a
# reservation made outside this group cannot serve instances asked for inside it.
<#list terraform.pools as pool>

resource "aws_placement_group" "[=id(pool.var)]" {
  count = var.placement_strategy == "none" || var.[=id(pool.var)]_capacity_reservation_id != null ? 0 : 1

  name     = "${local.name}-[=id(pool.name)]"
  strategy = var.placement_strategy

  tags = {
    "gpugen:pool" = [=hcl(pool.name)]
  }

  lifecycle {
    precondition {
      condition     = var.placement_strategy != "spread" || var.[=id(pool.var)]_count <= 7
      error_message = "A spread placement group holds at most 7 running instances per availability zone; pool [=id(pool.name)] asks for ${var.[=id(pool.var)]_count}."
    }
  }
}
</#list>
