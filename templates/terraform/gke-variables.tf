#
# Every value a user may change without re-rendering; gpugen writes the spec's values into
# terraform.tfvars.json (override them in a file of your own, e.g. override.auto.tfvars).

################################################################################
# Cluster
################################################################################

variable "cluster_name" {
  description = "Cluster name (the gpugen-cluster label)."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,38}$", var.cluster_name)) && !can(regex("^(con|prn|aux|nul|com[1-9]|lpt[1-9])$", var.cluster_name))
    error_message = "The cluster_name must be a name of lower-case letters, digits and '-' (1-39 chars, starting with a letter; not con, nul, aux...)."
  }
}

variable "environment" {
  description = "Environment (dev, prod, ...): the gpugen-environment label; null for none."
  type        = string
  default     = null

  validation {
    condition     = var.environment == null ? true : (can(regex("^[a-z][a-z0-9-]{0,30}$", var.environment)) && !can(regex("^(con|prn|aux|nul|com[1-9]|lpt[1-9])$", var.environment)))
    error_message = "The environment must be an environment name of lower-case letters, digits and '-' (1-31 chars)."
  }
}

variable "project" {
  description = "The GCP project."
  type        = string
}

variable "region" {
  description = "The GCP region."
  type        = string
}

variable "zone" {
  description = "The zone of the cluster and of every node."
  type        = string
}

variable "gke_cluster_name" {
  description = "The GKE cluster's name."
  type        = string
}

variable "gke_create_cluster" {
  description = "Create the cluster (with its own VPC); false adds the node pools to an existing one."
  type        = bool
  default     = true
}

variable "gke_release_channel" {
  description = "The release channel of the cluster gpugen creates (node auto-upgrade stays on, as GKE requires in a channel)."
  type        = string
  default     = "REGULAR"

  validation {
    condition     = contains(["RAPID", "REGULAR", "STABLE", "EXTENDED"], var.gke_release_channel)
    error_message = "The gke_release_channel must be RAPID, REGULAR, STABLE or EXTENDED."
  }
}

variable "gke_version" {
  description = "The cluster's minimum control plane version: a minor (1.35) or an exact version (1.35.2-gke.1962000); new node pools get the control plane's."
  type        = string

  validation {
    condition     = can(regex("^1\\.[0-9]{2}(\\.[0-9]{1,3}-gke\\.[0-9]{1,10})?$", var.gke_version))
    error_message = "The gke_version must be a GKE version: a minor like \"1.35\" or an exact one like \"1.35.2-gke.1962000\"."
  }
}

variable "gke_hold_upgrades_until" {
  description = "The last day (UTC) of the maintenance exclusion that holds minor and node upgrades (NO_MINOR_OR_NODE_UPGRADES); at most the end of standard support of the cluster's minor version."
  type        = string

  validation {
    condition     = can(regex("^20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$", var.gke_hold_upgrades_until))
    error_message = "The gke_hold_upgrades_until must be a date like \"2027-03-31\"."
  }
}

variable "gke_authorized_networks" {
  description = "CIDRs that may reach the control plane's public endpoint."
  type        = list(string)
  default     = []

  validation {
    condition     = length(var.gke_authorized_networks) <= 50 && alltrue([for i in var.gke_authorized_networks : can(regex("^(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}/(3[0-2]|[12]?[0-9])$", i))])
    error_message = "The gke_authorized_networks must be a list of at most 50 of an IPv4 CIDR like 10.42.0.0/16."
  }
}

variable "gke_private_endpoint" {
  description = "The control plane's private endpoint only (reach it from inside the VPC)."
  type        = bool
  default     = false
}

variable "subnet_cidr" {
  description = "The primary range of the node subnet of the VPC gpugen creates; GKE picks the pods' and services' secondary ranges."
  type        = string

  validation {
    condition     = can(cidrnetmask(var.subnet_cidr))
    error_message = "The subnet_cidr must be an IPv4 CIDR like 10.0.0.0/20."
  }
}

variable "cloud_nat" {
  description = "Cloud NAT for the private nodes' way out (network.internet nat): pulling images from nvcr.io and the driver container's downloads."
  type        = bool
  default     = true
}

variable "node_service_account_id" {
  description = "The account id of the nodes' own service account (roles/container.defaultNodeServiceAccount only), instead of the Compute Engine default service account."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.node_service_account_id))
    error_message = "The node_service_account_id must be 6-30 lower-case letters, digits and '-', starting with a letter."
  }
}

variable "gpu_driver_version" {
  description = "GKE's driver install: INSTALLATION_DISABLED when the GPU Operator installs the driver."
  type        = string

  validation {
    condition     = contains(["INSTALLATION_DISABLED", "DEFAULT", "LATEST"], var.gpu_driver_version)
    error_message = "The gpu_driver_version must be INSTALLATION_DISABLED, DEFAULT or LATEST."
  }
}

variable "node_image_type" {
  description = "Node image: UBUNTU_CONTAINERD for the operator-installed driver, COS_CONTAINERD for GKE's."
  type        = string
}

variable "system_pool" {
  description = "The untainted CPU node pool for kube-system and controllers (kubernetes.systemPool); null for none."
  type = object({
    machine_type = string
    node_count   = number
    disk_size_gb = number
    autoscaling = optional(object({
      min = number
      max = number
    }))
  })
  default = null

  validation {
    condition     = var.system_pool == null ? true : (can(regex("^[a-z][a-z0-9-]*(\\.[a-z0-9]+)?$", var.system_pool.machine_type)) && length(var.system_pool.machine_type) <= 64)
    error_message = "The system_pool's machine_type must be an instance or machine type like p5.48xlarge."
  }

  validation {
    condition     = var.system_pool == null ? true : (var.system_pool.node_count >= 1 && var.system_pool.node_count <= 10 && floor(var.system_pool.node_count) == var.system_pool.node_count)
    error_message = "The system_pool's node_count must be an integer from 1 to 10."
  }

  validation {
    condition     = var.system_pool == null ? true : (var.system_pool.disk_size_gb >= 20 && var.system_pool.disk_size_gb <= 1000 && floor(var.system_pool.disk_size_gb) == var.system_pool.disk_size_gb)
    error_message = "The system_pool's disk_size_gb must be an integer from 20 to 1000."
  }

  validation {
    condition     = var.system_pool == null ? true : (var.system_pool.autoscaling == null ? true : (var.system_pool.autoscaling.min >= 1 && var.system_pool.autoscaling.min <= 10 && floor(var.system_pool.autoscaling.min) == var.system_pool.autoscaling.min))
    error_message = "The system_pool's autoscaling.min must be an integer from 1 to 10."
  }

  validation {
    condition     = var.system_pool == null ? true : (var.system_pool.autoscaling == null ? true : (var.system_pool.autoscaling.max >= 1 && var.system_pool.autoscaling.max <= 10 && floor(var.system_pool.autoscaling.max) == var.system_pool.autoscaling.max))
    error_message = "The system_pool's autoscaling.max must be an integer from 1 to 10."
  }

  validation {
    condition     = var.system_pool == null ? true : (var.system_pool.autoscaling == null ? true : var.system_pool.autoscaling.min <= var.system_pool.autoscaling.max)
    error_message = "The system_pool's autoscaling must be bounds with min at most max."
  }
}

################################################################################
# Pools
################################################################################

variable "pools" {
  description = "The GPU node pools, by name: one google_container_node_pool each (gke-node-pools.tf). gpugen's plan writes every entry."
  type = map(object({
    machine_type      = string
    accelerator_type  = string
    accelerator_count = number
    node_count        = optional(number, 1)
    autoscaling = optional(object({
      min = number
      max = number
    }))
    market               = optional(string, "on-demand")
    reservation          = optional(string)
    disk_size_gb         = optional(number, 200)
    compact_placement    = bool
    time_sharing_clients = optional(number)
    labels               = optional(map(string), {})
    taints = optional(list(object({
      key    = string
      value  = string
      effect = string
    })), [])
  }))

  validation {
    condition     = alltrue([for name in keys(var.pools) : can(regex("^[a-z][a-z0-9-]{0,30}$", name)) && !can(regex("^(con|prn|aux|nul|com[1-9]|lpt[1-9])$", name))])
    error_message = "Every pools key must be a name of lower-case letters, digits and '-' (1-31 chars, starting with a letter; not con, nul, aux...)."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : can(regex("^[a-z][a-z0-9-]*(\\.[a-z0-9]+)?$", pool.machine_type)) && length(pool.machine_type) <= 64])
    error_message = "Every pools entry's machine_type must be an instance or machine type like p5.48xlarge."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : pool.node_count >= 0 && pool.node_count <= 10000 && floor(pool.node_count) == pool.node_count])
    error_message = "Every pools entry's node_count must be an integer from 0 to 10000."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : pool.autoscaling == null ? true : (pool.autoscaling.min >= 0 && pool.autoscaling.min <= 1000 && floor(pool.autoscaling.min) == pool.autoscaling.min)])
    error_message = "Every pools entry's autoscaling.min must be an integer from 0 to 1000."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : pool.autoscaling == null ? true : (pool.autoscaling.max >= 1 && pool.autoscaling.max <= 1000 && floor(pool.autoscaling.max) == pool.autoscaling.max)])
    error_message = "Every pools entry's autoscaling.max must be an integer from 1 to 1000."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : contains(["on-demand", "spot", "capacity-block", "flex-start", "flex-start-queued"], pool.market)])
    error_message = "Every pools entry's market must be one of on-demand, spot, capacity-block, flex-start, flex-start-queued."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : pool.reservation == null ? true : can(regex("^(projects/[a-z][a-z0-9-]{4,28}[a-z0-9]/reservations/)?[a-z]([-a-z0-9]{0,61}[a-z0-9])?$", pool.reservation))])
    error_message = "Every pools entry's reservation must be a Compute Engine reservation name, or projects/PROJECT/reservations/NAME for one shared from another project."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : pool.disk_size_gb >= 30 && pool.disk_size_gb <= 16384 && floor(pool.disk_size_gb) == pool.disk_size_gb])
    error_message = "Every pools entry's disk_size_gb must be an integer from 30 to 16384."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : pool.time_sharing_clients == null ? true : (pool.time_sharing_clients >= 1 && pool.time_sharing_clients <= 64 && floor(pool.time_sharing_clients) == pool.time_sharing_clients)])
    error_message = "Every pools entry's time_sharing_clients must be null or an integer from 1 to 64."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : length(pool.labels) <= 64 && alltrue([for k, v in pool.labels : can(regex("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$", k)) && length(k) <= 316 && can(regex("^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$", v))])])
    error_message = "Every pools entry's labels must be a map of at most 64 entries from a Kubernetes label key like workload-type or nvidia.com/gpu to a Kubernetes label value (up to 63 letters, digits, '-', '_', '.')."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : alltrue([for t in pool.taints : (can(regex("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$", t.key)) && length(t.key) <= 316) && can(regex("^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$", t.value)) && contains(["NO_SCHEDULE", "PREFER_NO_SCHEDULE", "NO_EXECUTE"], t.effect)])])
    error_message = "Every pools entry's taints must be taints with a Kubernetes label key and value and a GKE effect (NO_SCHEDULE, PREFER_NO_SCHEDULE, NO_EXECUTE)."
  }
}
