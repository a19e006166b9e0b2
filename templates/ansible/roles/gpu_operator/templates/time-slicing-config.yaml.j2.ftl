<#if !argocd.enabled>
[=jinjaHeader]
# Managed by Ansible (gpugen role gpu_operator): device-plugin time-slicing, in the schema of
# NVIDIA's k8s-device-plugin (version v1, sharing.timeSlicing.resources[]).
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ gpu_operator_time_slicing_config_name | to_json }}
  namespace: {{ gpu_operator_namespace | to_json }}
data:
  any: |-
    version: v1
    flags:
      migStrategy: none
    sharing:
      timeSlicing:
        renameByDefault: false
        failRequestsGreaterThanOne: true
        resources:
          - name: nvidia.com/gpu
            replicas: {{ gpu_operator_time_slicing_replicas | int }}
</#if>
