#
# The NVIDIA GPU Operator, when it installs the driver (gpu_operator_enabled). Its pods run at
# system-node-critical priority, which GKE admits outside kube-system only under a quota. With
# gitops.argocd (argocd_enabled) the chart itself is ArgoCD's (argocd/apps/gpu-operator.yaml);
# Terraform keeps the namespace, the quota and the time-slicing ConfigMap the chart's values name.

resource "kubernetes_namespace_v1" "gpu_operator" {
  count = var.gpu_operator_enabled ? 1 : 0

  metadata {
    name = "gpu-operator"
  }
}

resource "kubernetes_resource_quota_v1" "gpu_operator" {
  count = var.gpu_operator_enabled ? 1 : 0

  metadata {
    name      = "gpu-operator-quota"
    namespace = kubernetes_namespace_v1.gpu_operator[0].metadata[0].name
  }

  spec {
    hard = {
      pods = "100"
    }

    scope_selector {
      match_expression {
        operator   = "In"
        scope_name = "PriorityClass"
        values     = ["system-node-critical", "system-cluster-critical"]
      }
    }
  }
}

# Device-plugin time-slicing per pool, in NVIDIA's k8s-device-plugin config schema (v1): one
# entry per pool that shares its GPUs, chosen on each node by the nvidia.com/device-plugin.config
# label its node pool carries; nodes without the label keep whole GPUs.
resource "kubernetes_config_map_v1" "time_slicing" {
  count = var.gpu_operator_enabled && length(var.time_slicing_replicas) > 0 ? 1 : 0

  metadata {
    name      = "time-slicing-config"
    namespace = kubernetes_namespace_v1.gpu_operator[0].metadata[0].name
  }

  data = {
    for pool, replicas in var.time_slicing_replicas : pool => yamlencode({
      version = "v1"
      flags   = { migStrategy = "none" }
      sharing = {
        timeSlicing = {
          renameByDefault            = false
          failRequestsGreaterThanOne = true
          resources                  = [{ name = "nvidia.com/gpu", replicas = replicas }]
        }
      }
    })
  }
}

resource "helm_release" "gpu_operator" {
  count = var.gpu_operator_enabled && !var.argocd_enabled ? 1 : 0

  name       = "gpu-operator"
  namespace  = kubernetes_namespace_v1.gpu_operator[0].metadata[0].name
  repository = "https://helm.ngc.nvidia.com/nvidia"
  chart      = "gpu-operator"
  version    = var.gpu_operator_version
  values     = [yamlencode(var.gpu_operator_values)]
  wait       = true
  timeout    = 900

  depends_on = [
    kubernetes_resource_quota_v1.gpu_operator,
    kubernetes_config_map_v1.time_slicing,
    google_container_node_pool.pools,
  ]
}
