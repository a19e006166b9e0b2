#
# /etc/nccl.conf on every GPU node: a ConfigMap with the spec's NCCL environment, and a DaemonSet
# whose init container copies it onto the host through a hostPath mount of /etc (written beside,
# then renamed, so NCCL never reads half a file). The checksum annotation rolls the DaemonSet when
# the settings change. With gitops.argocd (argocd_enabled) ArgoCD owns both
# (argocd/manifests/nccl-config/) and Terraform creates neither.

locals {
  nccl_conf = join("", [for k in sort(keys(var.nccl_env)) : "${k}=${var.nccl_env[k]}\n"])
}

resource "kubernetes_config_map_v1" "nccl" {
  count = var.argocd_enabled ? 0 : 1

  metadata {
    name      = "gpugen-nccl-conf"
    namespace = "kube-system"
  }

  data = {
    "nccl.conf" = local.nccl_conf
  }
}

resource "kubernetes_daemon_set_v1" "nccl_conf" {
  count = var.argocd_enabled ? 0 : 1

  metadata {
    name      = "gpugen-nccl-conf"
    namespace = "kube-system"
  }

  spec {
    selector {
      match_labels = {
        app = "gpugen-nccl-conf"
      }
    }

    template {
      metadata {
        labels = {
          app = "gpugen-nccl-conf"
        }
        annotations = {
          "gpugen/nccl-conf-sha256" = sha256(local.nccl_conf)
        }
      }

      spec {
        priority_class_name = "system-node-critical"

        affinity {
          node_affinity {
            required_during_scheduling_ignored_during_execution {
              node_selector_term {
                match_expressions {
                  key      = "cloud.google.com/gke-accelerator"
                  operator = "Exists"
                }
              }
            }
          }
        }

        # GPU pools are often tainted; the file must reach every one of them.
        toleration {
          operator = "Exists"
        }

        init_container {
          name    = "write-nccl-conf"
          image   = "busybox:1.36.1"
          command = ["/bin/sh", "-c", "cp /gpugen/nccl.conf /host-etc/.nccl.conf.gpugen && chmod 0644 /host-etc/.nccl.conf.gpugen && mv -f /host-etc/.nccl.conf.gpugen /host-etc/nccl.conf"]

          security_context {
            allow_privilege_escalation = false
            read_only_root_filesystem  = true
            run_as_user                = 0
          }

          volume_mount {
            name       = "config"
            mount_path = "/gpugen"
            read_only  = true
          }

          volume_mount {
            name       = "host-etc"
            mount_path = "/host-etc"
          }
        }

        container {
          name  = "pause"
          image = "registry.k8s.io/pause:3.10"

          resources {
            limits = {
              cpu    = "10m"
              memory = "16Mi"
            }
          }

          security_context {
            allow_privilege_escalation = false
            read_only_root_filesystem  = true
            run_as_non_root            = true
            run_as_user                = 65535
          }
        }

        volume {
          name = "config"
          config_map {
            name = kubernetes_config_map_v1.nccl[0].metadata[0].name
          }
        }

        volume {
          name = "host-etc"
          host_path {
            path = "/etc"
            type = "Directory"
          }
        }
      }
    }
  }
}

# The addresses of the layout before argocd_enabled: each resource gained count.
moved {
  from = kubernetes_config_map_v1.nccl
  to   = kubernetes_config_map_v1.nccl[0]
}

moved {
  from = kubernetes_daemon_set_v1.nccl_conf
  to   = kubernetes_daemon_set_v1.nccl_conf[0]
}
