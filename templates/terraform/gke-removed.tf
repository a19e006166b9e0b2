#
# What the layout before terraform/in-cluster/ kept in this root module: the GPU Operator and the
# NCCL settings, whose kubernetes and helm providers took their credentials from the cluster this
# configuration creates (HashiCorp's kubernetes provider documentation warns against it). These
# blocks make Terraform forget them here without deleting anything from the cluster; the
# in-cluster root module adopts them (var.adopt_existing, docs/gke.md). They only declare.

removed {
  from = helm_release.gpu_operator

  lifecycle {
    destroy = false
  }
}

removed {
  from = kubernetes_config_map_v1.time_slicing

  lifecycle {
    destroy = false
  }
}

removed {
  from = kubernetes_resource_quota_v1.gpu_operator

  lifecycle {
    destroy = false
  }
}

removed {
  from = kubernetes_namespace_v1.gpu_operator

  lifecycle {
    destroy = false
  }
}

removed {
  from = kubernetes_daemon_set_v1.nccl_conf

  lifecycle {
    destroy = false
  }
}

removed {
  from = kubernetes_config_map_v1.nccl

  lifecycle {
    destroy = false
  }
}
