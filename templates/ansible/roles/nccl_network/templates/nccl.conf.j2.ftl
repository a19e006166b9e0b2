[=jinjaHeader]
# Managed by Ansible (gpugen role nccl_network). NCCL takes each line as NAME=VALUE verbatim: no
# export, no quotes, no spaces. A variable already set in a process's environment wins.
{% for name, value in nccl_network_env_effective | dictsort %}
{{ name }}={{ value }}
{% endfor %}
