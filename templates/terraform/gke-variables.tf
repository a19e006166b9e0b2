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
    condition     = can(regex("^[a-z][a-z0-9-]{0,38}$", var.cluster_name))
    error_message = "The cluster_name must be 1-39 lower-case letters, digits and '-', starting with a letter."
  }
}

variable "environment" {
  description = "Environment (dev, prod, ...): the gpugen-environment label; null for none."
  type        = string
  default     = null

  validation {
    condition     = var.environment == null ? true : can(regex("^[a-z][a-z0-9-]{0,30}$", var.environment))
    error_message = "The environment must be 1-31 lower-case letters, digits and '-', starting with a letter."
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
  description = "Create the cluster; false adds the node pools to an existing one."
  type        = bool
  default     = true
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

variable "gpu_operator_enabled" {
  description = "Install the NVIDIA GPU Operator (with the driver)."
  type        = bool
}

variable "argocd_enabled" {
  description = "ArgoCD (gitops.argocd) installs the GPU Operator chart and writes /etc/nccl.conf; Terraform keeps the namespace, the quota and the time-slicing ConfigMap."
  type        = bool
  default     = false
}

variable "gpu_operator_version" {
  description = "GPU Operator chart version (with the v prefix); null with argocd_enabled."
  type        = string
  default     = null
}

variable "gpu_operator_values" {
  description = "GPU Operator chart values; null with argocd_enabled."
  type        = any
  default     = null
}

variable "nccl_env" {
  description = "NCCL settings written to /etc/nccl.conf on every GPU node."
  type        = map(string)
  default     = {}
}

variable "time_slicing_replicas" {
  description = "GPU Operator device-plugin time-slicing: replicas per GPU by pool (the pool's nodes carry nvidia.com/device-plugin.config=<pool>)."
  type        = map(number)
  default     = {}
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
    condition     = alltrue([for name, pool in var.pools : contains(["on-demand", "spot", "capacity-block"], pool.market)])
    error_message = "Every pools entry's market must be one of on-demand, spot, capacity-block."
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
