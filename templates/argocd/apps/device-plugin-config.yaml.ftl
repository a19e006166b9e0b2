[=header]
#
# The device plugin's time-slicing ConfigMap, which the GPU Operator's values point at.
# Plain manifests from manifests/[=id(argocd.devicePluginConfig.component)]/. Wave 0: before the operator (wave 1).
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: [=yaml(argocd.devicePluginConfig.name)]
  namespace: [=yaml(argocd.namespace)]
  annotations:
    argocd.argoproj.io/sync-wave: "[=argocd.devicePluginConfig.wave?c]"
  labels:
    app.kubernetes.io/managed-by: gpugen
    gpugen/cluster: [=yaml(argocd.cluster)]
    gpugen/component: [=yaml(argocd.devicePluginConfig.component)]
spec:
  project: [=yaml(argocd.project)]
  source:
    repoURL: [=yaml(argocd.repoUrl)]
    targetRevision: [=yaml(argocd.targetRevision)]
    path: [=yaml(argocd.devicePluginConfig.path)]
    directory:
      recurse: false
  destination:
    server: [=yaml(argocd.server)]
    namespace: [=yaml(argocd.devicePluginConfig.namespace)]
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
