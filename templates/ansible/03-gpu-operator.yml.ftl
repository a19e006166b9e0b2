[=header]
---
<#if argocd.enabled>
# GitOps: ArgoCD installs the chart (argocd/); this play checks once, from the controller, that
# the gpugen Applications are Synced and Healthy. Node labels and taints are set per host through
# the Kubernetes API from the controller.
- name: Check the ArgoCD GPU Operator Applications and label the GPU nodes
<#else>
# The chart is installed once per cluster from the controller (the first host's run); node
# labels and taints are set per host, also through the Kubernetes API from the controller.
- name: Deploy the NVIDIA GPU Operator and label the GPU nodes
</#if>
  hosts: gpu_nodes
  become: true
  gather_facts: true
  gather_subset:
    - "!all"
  roles:
    - role: gpu_operator
      tags: [gpu_operator]
