[=header]
#
# The NCCL settings of the spec as a ConfigMap (and, on GKE, the DaemonSet writing /etc/nccl.conf).
# Plain manifests from manifests/[=id(argocd.ncclConfig.component)]/. Wave 0: before the operator (wave 1).
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: [=yaml(argocd.ncclConfig.name)]
  namespace: [=yaml(argocd.namespace)]
  annotations:
    argocd.argoproj.io/sync-wave: "[=argocd.ncclConfig.wave?c]"
  labels:
    app.kubernetes.io/managed-by: gpugen
    gpugen/cluster: [=yaml(argocd.cluster)]
    gpugen/component: [=yaml(argocd.ncclConfig.component)]
spec:
  project: [=yaml(argocd.project)]
  source:
    repoURL: [=yaml(argocd.repoUrl)]
    targetRevision: [=yaml(argocd.targetRevision)]
    path: [=yaml(argocd.ncclConfig.path)]
    directory:
      recurse: false
  destination:
    server: [=yaml(argocd.server)]
    namespace: [=yaml(argocd.ncclConfig.namespace)]
  syncPolicy:
<#if argocd.automated>
    automated:
      prune: true
      selfHeal: true
</#if>
    syncOptions:
      - CreateNamespace=true
    retry:
      limit: 5
      backoff:
        duration: 30s
        factor: 2
        maxDuration: 10m
