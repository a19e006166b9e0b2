[=header]
---
# Used by upgrade-driver.yml once the node passed validation with its new driver.
- name: Uncordon the node
  kubernetes.core.k8s_drain:
    name: "{{ gpu_operator_node_name }}"
    state: uncordon
    kubeconfig: "{{ gpu_operator_kubeconfig | default(omit, true) }}"
  delegate_to: localhost
  become: false
  tags: [kubernetes, network]
