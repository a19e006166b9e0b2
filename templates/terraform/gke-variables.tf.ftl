[=header]
#
# Every value a user may change without re-rendering; gpugen writes the spec's values into
# terraform.tfvars.json (override them in a file of your own, e.g. override.auto.tfvars).

variable "cluster_name" {
  description = "Cluster name (the gpugen-cluster label)."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,38}$", var.cluster_name))
    error_message = "The cluster_name must be 1-39 lower-case letters, digits and '-', starting with a letter."
  }
}

variable "environment" {
  description = "Environment (dev, prod, ...); null for none."
  type        = string
  default     = null
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

variable "gpu_operator_version" {
  description = "GPU Operator chart version (with the v prefix)."
  type        = string
}

variable "gpu_operator_values" {
  description = "GPU Operator chart values."
  type        = any
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
<#list terraform.pools as pool>

variable "[=id(pool.var)]_machine_type" {
  description = [=hcl("Machine type of pool " + pool.name + ".")]
  type        = string
}

variable "[=id(pool.var)]_accelerator_type" {
  description = [=hcl("Accelerator type of pool " + pool.name + " (gpugen's table for the machine type).")]
  type        = string
}

variable "[=id(pool.var)]_accelerator_count" {
  description = [=hcl("Accelerators per node of pool " + pool.name + " (gpugen's table).")]
  type        = number
}

variable "[=id(pool.var)]_count" {
  description = [=hcl("Nodes of pool " + pool.name + " without autoscaling.")]
  type        = number
  default     = 0
}

variable "[=id(pool.var)]_autoscaling_min" {
  description = [=hcl("Fewest nodes of pool " + pool.name + "; null without autoscaling.")]
  type        = number
  default     = null
}

variable "[=id(pool.var)]_autoscaling_max" {
  description = [=hcl("Most nodes of pool " + pool.name + "; null without autoscaling.")]
  type        = number
  default     = null
}

variable "[=id(pool.var)]_spot" {
  description = [=hcl("Spot VMs for pool " + pool.name + ".")]
  type        = bool
  default     = false
}

variable "[=id(pool.var)]_disk_size_gb" {
  description = [=hcl("Boot disk size of pool " + pool.name + " in GB.")]
  type        = number
  default     = 200
}

variable "[=id(pool.var)]_compact_placement" {
  description = [=hcl("Compact placement for pool " + pool.name + ".")]
  type        = bool
  default     = false
}

variable "[=id(pool.var)]_time_sharing_clients" {
  description = [=hcl("GKE GPU time-sharing clients per GPU of pool " + pool.name + " (GKE's device plugin); null: no sharing.")]
  type        = number
  default     = null
}

variable "[=id(pool.var)]_labels" {
  description = [=hcl("Kubernetes node labels of pool " + pool.name + ".")]
  type        = map(string)
  default     = {}
}

variable "[=id(pool.var)]_taints" {
  description = [=hcl("Kubernetes node taints of pool " + pool.name + " (GKE effect names).")]
  type = list(object({
    key    = string
    value  = string
    effect = string
  }))
  default = []
}
</#list>
