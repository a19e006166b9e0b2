[=header]
---
# Used by upgrade-driver.yml before the driver of a node changes.
- name: Cordon and drain the node
  kubernetes.core.k8s_drain:
    name: "{{ gpu_operator_node_name }}"
    state: drain
    delete_options:
      ignore_daemonsets: true
      delete_emptydir_data: true
      terminate_grace_period: "{{ gpu_operator_drain_grace_period | int }}"
      wait_timeout: "{{ gpu_operator_drain_timeout | int }}"
    kubeconfig: "{{ gpu_operator_kubeconfig | default(omit, true) }}"
  delegate_to: localhost
  become: false
  tags: [kubernetes, network]
