[=header]
#
# Device-plugin time-slicing, in the schema of NVIDIA's k8s-device-plugin (version v1,
# sharing.timeSlicing.resources[]): the same ConfigMap play 03 applies without GitOps. "any" is
# every node's default; a pool with other replicas has its own entry, which its nodes select with
# the nvidia.com/device-plugin.config label (play 03 sets it).
apiVersion: v1
kind: ConfigMap
metadata:
  name: [=yaml(argocd.timeSlicingConfigName)]
  namespace: [=yaml(argocd.devicePluginConfig.namespace)]
  labels:
    app.kubernetes.io/managed-by: gpugen
data:
<#list argocd.devicePluginConfigs as c>
  [=yaml(c.key)]: [=yaml(c.value)]
</#list>
