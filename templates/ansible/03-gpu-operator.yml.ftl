<#if !ansible.kubernetes.enabled>
[=header]
---
# The spec has no kubernetes: section, so there is no cluster to deploy the GPU Operator to or to
# label nodes in (gpugen validate says so: k8s-not-configured).
- name: Skip the GPU Operator (the spec names no Kubernetes cluster)
  hosts: gpu_nodes
  gather_facts: false
  tasks:
    - name: Say why nothing is deployed
      ansible.builtin.debug:
        msg: >-
          The spec has no kubernetes: section: the GPU Operator, node labels and taints are
          skipped. Add kubernetes: {distribution: ...} to the spec and render again.
      run_once: true
<#else>
[=header]
---
# Pre-flight: the kubeconfig's cluster runs the spec's Kubernetes minor and every GPU host is a
# Ready node of it; otherwise nothing below runs, and the failure names the hosts.
- name: Check that every GPU host is a Ready node of the cluster
  hosts: gpu_nodes
  become: false
  gather_facts: true
  gather_subset:
    - "!all"
  any_errors_fatal: true
  tasks:
    - name: Check the cluster and its nodes
      ansible.builtin.import_role:
        name: kubernetes_checks
        tasks_from: preflight
      tags: [kubernetes, preflight]

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
<#if ansible.validationState>
  # Pools with validation.gateScheduling: a node that play 05 never judged is tainted
  # gpugen.dev/validation=pending:NoSchedule before the operator makes its GPUs schedulable.
  pre_tasks:
    - name: Keep the never-validated nodes of gated pools off the scheduler
      ansible.builtin.import_role:
        name: validation_scheduling
        tasks_from: gate
      tags: [kubernetes, gpu_operator, gate]
</#if>
  roles:
    - role: gpu_operator
      tags: [gpu_operator]
</#if>
