[=jinjaHeader]
# Managed by Ansible (gpugen role gpu_operator): Helm values of the NVIDIA GPU Operator chart
# {{ gpu_operator_version }}. The driver and the container toolkit are installed on the hosts
# (plays 01 and 02), so the operator must not install them again.
driver:
  enabled: false
toolkit:
  enabled: {{ gpu_operator_toolkit_enabled | bool | to_json }}
operator:
  defaultRuntime: containerd
nfd:
  enabled: true
gfd:
  enabled: true
# The Prometheus exporter. (dcgm.enabled is a standalone host engine, not the exporter.)
dcgmExporter:
  enabled: {{ gpu_operator_dcgm_exporter | bool | to_json }}
migManager:
  enabled: {{ gpu_operator_mig_manager | bool | to_json }}
devicePlugin:
  enabled: true
{% if gpu_operator_time_slicing_replicas | int > 1 %}
  config:
    name: {{ gpu_operator_time_slicing_config_name | to_json }}
    default: any
{% endif %}
