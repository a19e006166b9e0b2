[=header]
#
# Device-plugin time-slicing, in the schema of NVIDIA's k8s-device-plugin (version v1,
# sharing.timeSlicing.resources[]): the same ConfigMap play 03 applies without GitOps.
apiVersion: v1
kind: ConfigMap
metadata:
  name: [=yaml(argocd.timeSlicingConfigName)]
  namespace: [=yaml(argocd.devicePluginConfig.namespace)]
  labels:
    app.kubernetes.io/managed-by: gpugen
data:
  any: [=yaml(argocd.timeSlicingConfig)]
