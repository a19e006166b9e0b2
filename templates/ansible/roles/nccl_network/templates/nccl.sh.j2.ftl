[=jinjaHeader]
# Managed by Ansible (gpugen role nccl_network): the variables of {{ nccl_network_conf_file }} for
# login shells.
{% for name, value in nccl_network_env_effective | dictsort %}
export {{ name }}={{ value | quote }}
{% endfor %}
