[=header]
#
# The NVIDIA GPU Operator chart at the spec's version, with the values play 03 installs it with
# (both come from one place in gpugen). Wave 1: after the configuration it reads (wave 0).
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: [=yaml(argocd.gpuOperator.name)]
  namespace: [=yaml(argocd.namespace)]
  annotations:
    argocd.argoproj.io/sync-wave: "[=argocd.gpuOperator.wave?c]"
  labels:
    app.kubernetes.io/managed-by: gpugen
    gpugen/cluster: [=yaml(argocd.cluster)]
    gpugen/component: [=yaml(argocd.gpuOperator.component)]
spec:
  project: [=yaml(argocd.project)]
  source:
    repoURL: [=yaml(argocd.chartRepo)]
    chart: gpu-operator
    targetRevision: [=yaml(argocd.operatorVersion)]
    helm:
      releaseName: gpu-operator
      valuesObject:
[=yamlTree(argocd.operatorValues, 8)]
  destination:
    server: [=yaml(argocd.server)]
    namespace: [=yaml(argocd.gpuOperator.namespace)]
  syncPolicy:
<#if argocd.automated>
    automated:
      prune: true
      selfHeal: true
</#if>
    syncOptions:
      - CreateNamespace=true
      # The operator's CRDs (ClusterPolicy, NodeFeatureRule, ...) exceed the 256 KiB annotation
      # client-side apply writes.
      - ServerSideApply=true
    retry:
      limit: 5
      backoff:
        duration: 30s
        factor: 2
        maxDuration: 10m
