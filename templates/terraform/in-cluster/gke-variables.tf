#
# Every value a user may change without re-rendering; gpugen writes the spec's values into
# terraform.tfvars.json (override them in a file of your own, e.g. override.auto.tfvars).

################################################################################
# Cluster
################################################################################

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

################################################################################
# On the cluster
################################################################################

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

variable "gpu_operator_pod_quota" {
  description = "Pods of the GPU Operator's namespace at system-node-critical or system-cluster-critical priority (its ResourceQuota): twice what every pool at its maximum runs."
  type        = number

  validation {
    condition     = var.gpu_operator_pod_quota >= 1 && floor(var.gpu_operator_pod_quota) == var.gpu_operator_pod_quota
    error_message = "The gpu_operator_pod_quota must be a whole number of pods."
  }
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

variable "adopt_existing" {
  description = "Import the objects a render from before this layout created from the cluster's own Terraform (set it once, on the first apply after upgrading)."
  type        = bool
  default     = false
}
