#
# Adopting what a render from before this root module created from the cluster's root (whose
# gke-removed.tf forgets it there): set adopt_existing=true on the first apply after upgrading,
# and Terraform imports each object instead of failing to create it again. Off by default, since
# importing an object that does not exist fails.

locals {
  adopt_operator = var.adopt_existing && var.gpu_operator_enabled ? toset(["adopt"]) : toset([])
  adopt_chart    = var.adopt_existing && var.gpu_operator_enabled && !var.argocd_enabled ? toset(["adopt"]) : toset([])
  adopt_slicing  = var.adopt_existing && var.gpu_operator_enabled && length(var.time_slicing_replicas) > 0 ? toset(["adopt"]) : toset([])
  adopt_nccl     = var.adopt_existing && !var.argocd_enabled ? toset(["adopt"]) : toset([])
}

import {
  for_each = local.adopt_operator
  to       = kubernetes_namespace_v1.gpu_operator[0]
  id       = "gpu-operator"
}

import {
  for_each = local.adopt_operator
  to       = kubernetes_resource_quota_v1.gpu_operator[0]
  id       = "gpu-operator/gpu-operator-quota"
}

import {
  for_each = local.adopt_slicing
  to       = kubernetes_config_map_v1.time_slicing[0]
  id       = "gpu-operator/time-slicing-config"
}

import {
  for_each = local.adopt_chart
  to       = helm_release.gpu_operator[0]
  id       = "gpu-operator/gpu-operator"
}

import {
  for_each = local.adopt_nccl
  to       = kubernetes_config_map_v1.nccl[0]
  id       = "kube-system/gpugen-nccl-conf"
}

import {
  for_each = local.adopt_nccl
  to       = kubernetes_daemon_set_v1.nccl_conf[0]
  id       = "kube-system/gpugen-nccl-conf"
}
