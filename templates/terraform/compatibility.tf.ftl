[=header]
#
# The version gate. gpugen's compatibility table (the data its linter checks the spec against)
# as lookup tables, and checks on the variables: a driver, CUDA and GPU combination that cannot
# work stops `terraform plan` (preconditions of the launch templates in instances.tf); one that
# works with limits gives a warning (check blocks below).
#
# Versions are compared part by part as numbers: 580.95.05 becomes 580095005, each part weighted
# by a power of 1000. The variables' validation keeps driver versions to at most three parts
# below 1000, so these numbers order exactly like the versions. (Comparing the strings would
# not: ">=" needs numbers in Terraform, and as text "535.104.05" sorts before "535.54.03".)

################################################################################
# gpugen's compatibility table
################################################################################

locals {
  # EC2 instance type: the model of its GPUs, the EFA interfaces to request, one per network card
  # that supports EFA (0 where the type has no EFA), and whether card 0 is one of them.
  compat_instance_types = {
<#list terraform.compat.instanceTypes as r>
    [=hcl(r.key)][=r.pad] = { gpu = [=hcl(r.value.gpu)], efa_interfaces = [=r.value.efaInterfaces], efa_card0 = [=r.value.efaCard0?c] }
</#list>
  }

  # GPU model: the oldest driver that supports it.
  compat_gpu_min_driver = {
<#list terraform.compat.gpuMinDrivers as r>
    [=hcl(r.key)][=r.pad] = { version = [=hcl(r.value.version)], key = [=r.value.key] }
</#list>
  }

  # CUDA release (major.minor): the driver its first release needs (CUDA release notes, Table 3).
  # Below it, but above the floor of its major, the toolkit runs with a limited feature set.
  compat_cuda_min_driver = {
<#list terraform.compat.cudaMinDrivers as r>
    [=hcl(r.key)][=r.pad] = { version = [=hcl(r.value.version)], key = [=r.value.key] }
</#list>
  }

  # CUDA major: the minor-version-compatibility floor; below it no toolkit of that major runs.
  compat_cuda_mvc_floor = {
<#list terraform.compat.cudaMvcFloors as r>
    [=hcl(r.key)][=r.pad] = { version = [=hcl(r.value.version)], key = [=r.value.key] }
</#list>
  }
}

################################################################################
# The pools, as the gate sees them
################################################################################

locals {
  pool_inputs = {
<#list terraform.pools as pool>
    [=hcl(pool.var)] = {
      name          = [=hcl(pool.name)]
      instance_type = var.[=id(pool.var)]_instance_type
      driver        = var.[=id(pool.var)]_driver_version
      cuda          = var.[=id(pool.var)]_cuda_version
      fabric        = var.[=id(pool.var)]_fabric
    }
</#list>
  }

  pools = {
    for pool, p in local.pool_inputs : pool => merge(p, {
      gpu            = try(local.compat_instance_types[p.instance_type].gpu, null)
      efa_interfaces = p.fabric == "efa" ? try(local.compat_instance_types[p.instance_type].efa_interfaces, 0) : 0
      efa_card0      = try(local.compat_instance_types[p.instance_type].efa_card0, true)
      driver_key     = sum([for i, part in split(".", p.driver) : tonumber(part) * pow(1000, 2 - i)])
      cuda_release   = join(".", [for part in split(".", p.cuda) : tostring(tonumber(part))])
      cuda_major     = tostring(tonumber(split(".", p.cuda)[0]))
    })
  }

  version_gate = {
    for pool, p in local.pools : pool => {
      efa_ok      = p.fabric != "efa" || p.efa_interfaces > 0
      efa_message = "Pool ${p.name}: fabric is efa, but gpugen's table lists no EFA network cards for ${p.instance_type}; choose an EFA instance type or set ${pool}_fabric = \"tcp\"."

      driver_runs_cuda         = lookup(local.compat_cuda_mvc_floor, p.cuda_major, null) == null ? true : p.driver_key >= local.compat_cuda_mvc_floor[p.cuda_major].key
      driver_runs_cuda_message = "Pool ${p.name}: driver ${p.driver} cannot run CUDA ${p.cuda}; CUDA ${p.cuda_major}.x needs driver ${try(local.compat_cuda_mvc_floor[p.cuda_major].version, "?")} or newer."

      driver_supports_gpu         = lookup(local.compat_gpu_min_driver, coalesce(p.gpu, "-"), null) == null ? true : p.driver_key >= local.compat_gpu_min_driver[p.gpu].key
      driver_supports_gpu_message = "Pool ${p.name}: driver ${p.driver} does not support the ${coalesce(p.gpu, "-")} GPUs of ${p.instance_type}; they need driver ${try(local.compat_gpu_min_driver[p.gpu].version, "?")} or newer."

      cuda_release_known         = lookup(local.compat_cuda_min_driver, p.cuda_release, null) != null
      cuda_release_known_message = "Pool ${p.name}: gpugen's table has no CUDA ${p.cuda} release, so its driver floor is unchecked."

      driver_meets_cuda_release = (
        lookup(local.compat_cuda_min_driver, p.cuda_release, null) == null ? true
        : p.driver_key >= local.compat_cuda_min_driver[p.cuda_release].key
        # Below the floor of the major the plan fails anyway (driver_runs_cuda): no second word.
        || p.driver_key < try(local.compat_cuda_mvc_floor[p.cuda_major].key, 0)
      )
      driver_meets_cuda_release_message = "Pool ${p.name}: CUDA ${p.cuda} wants driver ${try(local.compat_cuda_min_driver[p.cuda_release].version, "?")} or newer; driver ${p.driver} runs it only with a limited feature set (minor-version compatibility)."

      instance_type_known         = p.gpu != null
      instance_type_known_message = "Pool ${p.name}: gpugen's table does not know ${p.instance_type}, so the driver floor of its GPUs is unchecked."
    }
  }
}

################################################################################
# Warnings: combinations that work with limits, or that the table cannot judge
################################################################################
<#list terraform.pools as pool>

check "[=id(pool.var)]_versions" {
  assert {
    condition     = local.version_gate[[=hcl(pool.var)]].driver_meets_cuda_release
    error_message = local.version_gate[[=hcl(pool.var)]].driver_meets_cuda_release_message
  }

  assert {
    condition     = local.version_gate[[=hcl(pool.var)]].cuda_release_known
    error_message = local.version_gate[[=hcl(pool.var)]].cuda_release_known_message
  }

  assert {
    condition     = local.version_gate[[=hcl(pool.var)]].instance_type_known
    error_message = local.version_gate[[=hcl(pool.var)]].instance_type_known_message
  }
}
</#list>
