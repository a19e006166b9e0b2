[=header]
---
# Play 05's scheduler check, per host: the host's node is Ready and schedulable, and advertises
# allocatable nvidia.com/gpu = GPUs x time-slicing replicas (the device plugin's count) and, on EFA
# pools, vpc.amazonaws.com/efa = the EFA interfaces (the EFA device plugin's count). Retried while
# the device plugins start; the failure names the node and each shortfall.
- name: Check what the scheduler sees on the node
  delegate_to: localhost
  become: false
  vars:
    kubernetes_checks_node: "{{ kubernetes_checks_node_info.resources | default([]) | first | default({}) }}"
    kubernetes_checks_ready: >-
      {{ kubernetes_checks_node.status.conditions | default([]) | selectattr('type', 'equalto', 'Ready')
         | list | first | default({}) }}
    kubernetes_checks_allocatable: "{{ kubernetes_checks_node.status.allocatable | default({}) }}"
    kubernetes_checks_want_gpus: "{{ kubernetes_checks_gpus | int * kubernetes_checks_time_slicing_replicas | int }}"
    kubernetes_checks_shortfalls: >-
      {{ (['not a node of the cluster'] if kubernetes_checks_node | length == 0 else [])
         + (['not Ready (Ready=' ~ kubernetes_checks_ready.status | default('missing')
             ~ (', ' ~ kubernetes_checks_ready.reason if kubernetes_checks_ready.reason is defined else '') ~ ')']
            if kubernetes_checks_node | length > 0 and kubernetes_checks_ready.status | default('') != 'True' else [])
         + (['cordoned (spec.unschedulable)']
            if kubernetes_checks_node.spec.unschedulable | default(false) | bool else [])
         + (['advertises ' ~ kubernetes_checks_allocatable['nvidia.com/gpu'] | default('no') ~ ' nvidia.com/gpu, expected '
             ~ kubernetes_checks_want_gpus ~ ' (' ~ kubernetes_checks_gpus ~ ' GPUs x '
             ~ kubernetes_checks_time_slicing_replicas ~ ' time-slicing replicas)']
            if kubernetes_checks_node | length > 0
               and kubernetes_checks_allocatable['nvidia.com/gpu'] | default('0') | int != kubernetes_checks_want_gpus | int else [])
         + (['advertises ' ~ kubernetes_checks_allocatable['vpc.amazonaws.com/efa'] | default('no') ~ ' vpc.amazonaws.com/efa, expected '
             ~ kubernetes_checks_efa_interfaces ~ ' (the EFA interfaces)']
            if kubernetes_checks_node | length > 0 and kubernetes_checks_efa_interfaces | int > 0
               and kubernetes_checks_allocatable['vpc.amazonaws.com/efa'] | default('0') | int != kubernetes_checks_efa_interfaces | int else []) }}
  block:
    - name: Wait for the node to advertise its GPUs
      kubernetes.core.k8s_info:
        kind: Node
        name: "{{ kubernetes_checks_node_name }}"
        kubeconfig: "{{ kubernetes_checks_kubeconfig | default(omit, true) }}"
      register: kubernetes_checks_node_info
      until: kubernetes_checks_shortfalls | length == 0
      retries: "{{ [kubernetes_checks_retries | int, 1] | max }}"
      delay: "{{ kubernetes_checks_delay | int }}"
      # The next task fails with the node's name and each shortfall instead.
      failed_when: false

    - name: Fail naming the node when the scheduler's view falls short
      ansible.builtin.assert:
        that:
          - kubernetes_checks_node_info.resources is defined
          - kubernetes_checks_shortfalls | length == 0
        fail_msg: >-
          node {{ kubernetes_checks_node_name }} (host {{ inventory_hostname }}, pool {{ gpugen_pool | default('?') }})
          falls short: {{ kubernetes_checks_shortfalls | join('; ') if kubernetes_checks_node_info.resources is defined
          else kubernetes_checks_node_info.msg | default('the API call failed') }}
        quiet: true
