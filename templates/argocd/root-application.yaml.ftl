[=header]
#
# The root Application (app of apps): apply this one file once (kubectl apply -n [=id(argocd.namespace)] -f
# root-application.yaml); ArgoCD then creates the Applications in apps/ from Git and keeps them
# as they are there. See docs/gitops.md for the sync policy and the health checks.
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: [=yaml(argocd.rootName)]
  namespace: [=yaml(argocd.namespace)]
  labels:
    app.kubernetes.io/managed-by: gpugen
    gpugen/cluster: [=yaml(argocd.cluster)]
<#if argocd.environment?has_content>
    gpugen/environment: [=yaml(argocd.environment)]
</#if>
spec:
  project: [=yaml(argocd.project)]
  source:
    repoURL: [=yaml(argocd.repoUrl)]
    targetRevision: [=yaml(argocd.targetRevision)]
    path: [=yaml(argocd.appsPath)]
    directory:
      recurse: false
      include: "*.yaml"
  # Applications are created where ArgoCD runs, whatever cluster they deploy to.
  destination:
    server: [=yaml(argocd.inCluster)]
    namespace: [=yaml(argocd.namespace)]
  syncPolicy:
<#if argocd.automated>
    automated:
      prune: true
      selfHeal: true
</#if>
    retry:
      limit: 5
      backoff:
        duration: 30s
        factor: 2
        maxDuration: 10m
