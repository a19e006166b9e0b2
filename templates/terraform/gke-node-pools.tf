#
# One GKE node pool per entry of var.pools, keyed by the pool's name, and the system pool. The
# accelerator type and count are gpugen's table values for the machine type
# (terraform.tfvars.json), never derived from its spelling. Every pool keeps auto-upgrade on, as
# GKE requires in a release channel; the cluster's maintenance exclusion holds node upgrades.

locals {
  # Dynamic Workload Scheduler's flex-start, alone or with queued provisioning.
  flex_start_markets = ["flex-start", "flex-start-queued"]
}

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
      min_node_count  = autoscaling.value.min
      max_node_count  = autoscaling.value.max
      location_policy = contains(local.flex_start_markets, each.value.market) ? "ANY" : null
    }
  }

  # Flex-start nodes are not repaired (GKE's flex-start and queued provisioning guides create
  # their node pools with --no-enable-autorepair).
  management {
    auto_repair  = !contains(local.flex_start_markets, each.value.market)
    auto_upgrade = true
  }

  dynamic "queued_provisioning" {
    for_each = each.value.market == "flex-start-queued" ? [1] : []
    content {
      enabled = true
    }
  }

  dynamic "placement_policy" {
    for_each = each.value.compact_placement ? [1] : []
    content {
      type = "COMPACT"
    }
  }

  node_config {
    machine_type    = each.value.machine_type
    image_type      = var.node_image_type
    disk_size_gb    = each.value.disk_size_gb
    spot            = each.value.market == "spot"
    flex_start      = each.value.market == "flex-start"
    labels          = each.value.labels
    service_account = google_service_account.nodes.email
    oauth_scopes    = ["https://www.googleapis.com/auth/cloud-platform"]

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

    # A specific reservation (pools[].reservation), or none for flex-start, which GKE requires.
    dynamic "reservation_affinity" {
      for_each = each.value.reservation != null ? ["SPECIFIC_RESERVATION"] : (contains(local.flex_start_markets, each.value.market) ? ["NO_RESERVATION"] : [])
      content {
        consume_reservation_type = reservation_affinity.value
        key                      = reservation_affinity.value == "SPECIFIC_RESERVATION" ? "compute.googleapis.com/reservation-name" : null
        values                   = reservation_affinity.value == "SPECIFIC_RESERVATION" ? [each.value.reservation] : null
      }
    }

    guest_accelerator {
      type  = each.value.accelerator_type
      count = each.value.accelerator_count

      # INSTALLATION_DISABLED when the GPU Operator installs the driver (the pool then carries
      # gke-no-default-nvidia-gpu-device-plugin=true), DEFAULT or LATEST when GKE does.
      gpu_driver_installation_config {
        gpu_driver_version = var.gpu_driver_version
      }

      # Time-slicing through GKE's device plugin (gpuDriver: gke); under the GPU Operator the
      # operator's device plugin slices instead (in-cluster/gke-gpu-operator.tf).
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

  depends_on = [google_project_iam_member.nodes]
}

# The untainted CPU pool (systemPool): kube-system, controllers, the GPU Operator's Deployment
# and whatever tolerates no GPU pool's taint, off the GPU nodes.
resource "google_container_node_pool" "system" {
  count = var.system_pool == null ? 0 : 1

  project            = var.project
  location           = var.zone
  cluster            = local.gke_name
  name               = "gpugen-system"
  node_count         = var.system_pool.autoscaling == null ? var.system_pool.node_count : null
  initial_node_count = var.system_pool.autoscaling == null ? null : var.system_pool.autoscaling.min

  dynamic "autoscaling" {
    for_each = var.system_pool.autoscaling == null ? [] : [var.system_pool.autoscaling]
    content {
      min_node_count = autoscaling.value.min
      max_node_count = autoscaling.value.max
    }
  }

  management {
    auto_repair  = true
    auto_upgrade = true
  }

  node_config {
    machine_type    = var.system_pool.machine_type
    disk_size_gb    = var.system_pool.disk_size_gb
    image_type      = "COS_CONTAINERD"
    service_account = google_service_account.nodes.email
    oauth_scopes    = ["https://www.googleapis.com/auth/cloud-platform"]
    labels          = { gpugen-pool = "gpugen-system" }

    metadata = {
      disable-legacy-endpoints = "true"
    }

    resource_labels = merge(
      {
        gpugen-cluster = var.cluster_name
        gpugen-pool    = "gpugen-system"
      },
      var.environment == null ? {} : { gpugen-environment = var.environment },
    )

    workload_metadata_config {
      mode = "GKE_METADATA"
    }

    shielded_instance_config {
      enable_secure_boot          = true
      enable_integrity_monitoring = true
    }
  }

  depends_on = [google_project_iam_member.nodes]
}
