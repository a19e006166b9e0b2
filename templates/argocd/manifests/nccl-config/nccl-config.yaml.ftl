[=header]
#
# The spec's NCCL environment as /etc/nccl.conf reads it (NAME=VALUE lines), for workloads to
# mount. <#if argocd.ncclDaemonSet>The DaemonSet beside it copies it to /etc/nccl.conf on every GPU node.<#else>Play 04 writes the same file on each node.</#if>
apiVersion: v1
kind: ConfigMap
metadata:
  name: gpugen-nccl-conf
  namespace: [=yaml(argocd.ncclConfig.namespace)]
  labels:
    app.kubernetes.io/managed-by: gpugen
    gpugen/cluster: [=yaml(argocd.cluster)]
data:
  nccl.conf: [=yaml(argocd.ncclConf)]
