[=header]
#
# One GKE node pool per spec pool. The accelerator type and count are gpugen's table values for
# the machine type (terraform.tfvars.json), never derived from its spelling.
<#list terraform.pools as pool>

resource "google_container_node_pool" "[=id(pool.var)]" {
  project  = var.project
  location = var.zone
  cluster  = local.gke_name
  name     = [=hcl(pool.name)]

  node_count         = var.[=id(pool.var)]_autoscaling_max == null ? var.[=id(pool.var)]_count : null
  initial_node_count = var.[=id(pool.var)]_autoscaling_max == null ? null : var.[=id(pool.var)]_autoscaling_min

  dynamic "autoscaling" {
    for_each = var.[=id(pool.var)]_autoscaling_max == null ? [] : [1]
    content {
      min_node_count = var.[=id(pool.var)]_autoscaling_min
      max_node_count = var.[=id(pool.var)]_autoscaling_max
    }
  }

  # The driver and CUDA stack are pinned: no node upgrade may replace them behind a job.
  management {
    auto_repair  = true
    auto_upgrade = false
  }

  dynamic "placement_policy" {
    for_each = var.[=id(pool.var)]_compact_placement ? [1] : []
    content {
      type = "COMPACT"
    }
  }

  node_config {
    machine_type = var.[=id(pool.var)]_machine_type
    image_type   = var.node_image_type
    disk_size_gb = var.[=id(pool.var)]_disk_size_gb
    spot         = var.[=id(pool.var)]_spot
    labels       = var.[=id(pool.var)]_labels
    oauth_scopes = ["https://www.googleapis.com/auth/cloud-platform"]

    metadata = {
      disable-legacy-endpoints = "true"
    }

    resource_labels = merge(
      {
        gpugen-cluster = var.cluster_name
        gpugen-pool    = [=hcl(pool.name)]
      },
      var.environment == null ? {} : { gpugen-environment = var.environment },
    )

    guest_accelerator {
      type  = var.[=id(pool.var)]_accelerator_type
      count = var.[=id(pool.var)]_accelerator_count

      # INSTALLATION_DISABLED when the GPU Operator installs the driver (the pool then carries
      # gke-no-default-nvidia-gpu-device-plugin=true), DEFAULT when GKE does.
      gpu_driver_installation_config {
        gpu_driver_version = var.gpu_driver_version
      }

      # Time-slicing through GKE's device plugin (gpuDriver: gke); under the GPU Operator the
      # operator's device plugin slices instead (gke-gpu-operator.tf).
      dynamic "gpu_sharing_config" {
        for_each = var.[=id(pool.var)]_time_sharing_clients == null ? [] : [1]
        content {
          gpu_sharing_strategy       = "TIME_SHARING"
          max_shared_clients_per_gpu = var.[=id(pool.var)]_time_sharing_clients
        }
      }
    }

    workload_metadata_config {
      mode = "GKE_METADATA"
    }

    shielded_instance_config {
      enable_integrity_monitoring = true
    }

    dynamic "taint" {
      for_each = var.[=id(pool.var)]_taints
      content {
        key    = taint.value.key
        value  = taint.value.value
        effect = taint.value.effect
      }
    }
  }
}
</#list>
