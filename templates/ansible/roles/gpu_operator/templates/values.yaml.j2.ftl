<#if !argocd.enabled>
[=jinjaHeader]
# Managed by Ansible (gpugen role gpu_operator): Helm values of the NVIDIA GPU Operator chart
# {{ gpu_operator_version }}, from gpu_operator_values (group_vars/all.yml), which gpugen computes
# once for play 03, ArgoCD and Terraform. Where plays 01 and 02 install the driver and the
# container toolkit on the hosts, the values keep the operator from installing them again.
{{ gpu_operator_values | to_nice_yaml(indent=2) }}
</#if>
