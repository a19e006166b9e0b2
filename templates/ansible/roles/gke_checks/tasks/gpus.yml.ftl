[=header]
---
# Play 03 on GKE, per node pool: every node of the pool (label cloud.google.com/gke-nodepool)
# advertises the pool's GPUs as allocatable nvidia.com/gpu: the machine type's GPU count from
# gpugen's table, times the time-slicing replicas when time-slicing is on.
- name: Check the GPUs the pool's nodes advertise
  module_defaults:
    group/kubernetes.core.k8s:
      kubeconfig: "{{ gke_checks_kubeconfig }}"
      context: "{{ gke_checks_context }}"
  block:
    - name: Wait for every node of the pool to advertise its GPUs
      kubernetes.core.k8s_info:
        kind: Node
        label_selectors:
          - "cloud.google.com/gke-nodepool={{ gke_checks_node_pool }}"
      register: gke_checks_nodes
      until: >-
        gke_checks_nodes.resources | length >= gke_checks_min_nodes | int
        and gke_checks_nodes.resources | map(attribute='status.allocatable') | map('dict2items') | flatten
        | selectattr('key', 'equalto', 'nvidia.com/gpu') | map(attribute='value') | map('int')
        | select('equalto', gke_checks_allocatable_gpus | int) | list | length
        == gke_checks_nodes.resources | length
      retries: "{{ [gke_checks_retries | int, 1] | max }}"
      delay: "{{ gke_checks_delay | int }}"

  rescue:
    - name: Fail naming the pool and the figures
      ansible.builtin.fail:
        msg: >-
          node pool {{ gke_checks_node_pool }}: every node must advertise
          {{ gke_checks_allocatable_gpus }} nvidia.com/gpu allocatable ({{ gke_checks_gpus }} GPUs x
          {{ gke_checks_time_slicing_replicas }} time-slicing replicas), at least
          {{ gke_checks_min_nodes }} node(s);
          {% if gke_checks_nodes.resources is defined %}found {{ gke_checks_nodes.resources | length }} node(s):
          {% for n in gke_checks_nodes.resources %}{{ n.metadata.name }} advertises
          {{ n.status.allocatable['nvidia.com/gpu'] | default('no') }}{{ '' if loop.last else ',' }}
          {% endfor %}{% else %}{{ ansible_failed_result.msg | default('') }}{% endif %}
