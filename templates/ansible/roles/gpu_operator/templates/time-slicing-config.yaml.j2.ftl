<#if !argocd.enabled>
[=jinjaHeader]
# Managed by Ansible (gpugen role gpu_operator): device-plugin time-slicing, in the schema of
# NVIDIA's k8s-device-plugin (version v1, sharing.timeSlicing.resources[]). "any" is every node's
# default; a pool with other replicas has its own entry, which its nodes select with the
# nvidia.com/device-plugin.config label
# (https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-sharing.html).
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ gpu_operator_time_slicing_config_name | to_json }}
  namespace: {{ gpu_operator_namespace | to_json }}
data:
{% for key, config in gpu_operator_device_plugin_configs | dictsort %}
  {{ key | to_json }}: {{ config | to_json }}
{% endfor %}
</#if>
