[=header]
---
# Play 03's pre-flight: the kubeconfig's cluster runs the spec's Kubernetes minor, and every GPU
# host of the play is a Ready node of it. One failure names every host that is not, before
# anything is installed or labelled.
- name: Read the cluster from the controller
  delegate_to: localhost
  run_once: true
  become: false
  module_defaults:
    group/kubernetes.core.k8s:
      kubeconfig: "{{ kubernetes_checks_kubeconfig | default(omit, true) }}"
  block:
    - name: Read the API server's version
      kubernetes.core.k8s_cluster_info:
      register: kubernetes_checks_cluster

    - name: List the cluster's nodes
      kubernetes.core.k8s_info:
        kind: Node
      register: kubernetes_checks_nodes

    - name: Fail unless the cluster runs the spec's Kubernetes minor
      ansible.builtin.assert:
        that:
          - kubernetes_checks_server_minor == kubernetes_checks_version
        fail_msg: >-
          the kubeconfig's cluster ({{ kubernetes_checks_distribution }}) runs Kubernetes {{ kubernetes_checks_server.gitVersion | default('unknown') }}
          (minor {{ kubernetes_checks_server_minor }}), the spec's kubernetes.version is
          {{ kubernetes_checks_version }}: point the kubeconfig at the right cluster or fix the spec
        quiet: true
      vars:
        kubernetes_checks_server: "{{ kubernetes_checks_cluster.version.server.kubernetes | default({}) }}"
        # Managed clusters report minors like "33+".
        kubernetes_checks_server_minor: >-
          {{ kubernetes_checks_server.major | default('?') ~ '.'
             ~ (kubernetes_checks_server.minor | default('?') | regex_replace('[^0-9?]', '')) }}

- name: Find this host's node
  ansible.builtin.set_fact:
    kubernetes_checks_problem: >-
      {{ '' if kubernetes_checks_ready.status | default('') == 'True'
         else inventory_hostname ~ ' (node ' ~ kubernetes_checks_node_name ~ ': '
              ~ ('not a node of the cluster' if kubernetes_checks_node | length == 0
                 else 'not Ready: Ready=' ~ kubernetes_checks_ready.status | default('missing')
                      ~ (', ' ~ kubernetes_checks_ready.reason if kubernetes_checks_ready.reason is defined else '')
                      ~ (', ' ~ kubernetes_checks_ready.message if kubernetes_checks_ready.message is defined else ''))
              ~ ')' }}
  vars:
    kubernetes_checks_node: >-
      {{ kubernetes_checks_nodes.resources | selectattr('metadata.name', 'equalto', kubernetes_checks_node_name)
         | list | first | default({}) }}
    kubernetes_checks_ready: >-
      {{ kubernetes_checks_node.status.conditions | default([]) | selectattr('type', 'equalto', 'Ready')
         | list | first | default({}) }}

- name: Fail naming every GPU host that is not a Ready node of the cluster
  ansible.builtin.assert:
    that:
      - kubernetes_checks_problems | length == 0
    fail_msg: >-
      {{ kubernetes_checks_problems | length }} of {{ ansible_play_hosts | length }} GPU host(s)
      are not Ready nodes of the kubeconfig's cluster: {{ kubernetes_checks_problems | join('; ') }}
    quiet: true
  run_once: true
  vars:
    kubernetes_checks_problems: >-
      {{ ansible_play_hosts | map('extract', hostvars, 'kubernetes_checks_problem') | select | list }}
