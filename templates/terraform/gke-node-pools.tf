#
# One GKE node pool per entry of var.pools, keyed by the pool's name. The accelerator type and
# count are gpugen's table values for the machine type (terraform.tfvars.json), never derived from
# its spelling.

resource "google_container_node_pool" "pools" {
  for_each = var.pools

  project  = var.project
  location = var.zone
  cluster  = local.gke_name
  name     = each.key

  node_count         = each.value.autoscaling == null ? each.value.node_count : null
  initial_node_count = each.value.autoscaling == null ? null : each.value.autoscaling.min

  dynamic "autoscaling" {
    for_each = each.value.autoscaling == null ? [] : [each.value.autoscaling]
    content {
      min_node_count = autoscaling.value.min
      max_node_count = autoscaling.value.max
    }
  }

  # The driver and CUDA stack are pinned: no node upgrade may replace them behind a job.
  management {
    auto_repair  = true
    auto_upgrade = false
  }

  dynamic "placement_policy" {
    for_each = each.value.compact_placement ? [1] : []
    content {
      type = "COMPACT"
    }
  }

  node_config {
    machine_type = each.value.machine_type
    image_type   = var.node_image_type
    disk_size_gb = each.value.disk_size_gb
    spot         = each.value.market == "spot"
    labels       = each.value.labels
    oauth_scopes = ["https://www.googleapis.com/auth/cloud-platform"]

    metadata = {
      disable-legacy-endpoints = "true"
    }

    resource_labels = merge(
      {
        gpugen-cluster = var.cluster_name
        gpugen-pool    = each.key
      },
      var.environment == null ? {} : { gpugen-environment = var.environment },
    )

    guest_accelerator {
      type  = each.value.accelerator_type
      count = each.value.accelerator_count

      # INSTALLATION_DISABLED when the GPU Operator installs the driver (the pool then carries
      # gke-no-default-nvidia-gpu-device-plugin=true), DEFAULT when GKE does.
      gpu_driver_installation_config {
        gpu_driver_version = var.gpu_driver_version
      }

      # Time-slicing through GKE's device plugin (gpuDriver: gke); under the GPU Operator the
      # operator's device plugin slices instead (gke-gpu-operator.tf).
      dynamic "gpu_sharing_config" {
        for_each = each.value.time_sharing_clients == null ? [] : [each.value.time_sharing_clients]
        content {
          gpu_sharing_strategy       = "TIME_SHARING"
          max_shared_clients_per_gpu = gpu_sharing_config.value
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
      for_each = each.value.taints
      content {
        key    = taint.value.key
        value  = taint.value.value
        effect = taint.value.effect
      }
    }
  }
}
