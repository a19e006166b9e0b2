[=header]
---
# Play 04 on GKE: the ConfigMap gke-nccl.tf writes holds exactly the spec's NCCL settings (the
# same KEY=value lines, sorted by key), and its DaemonSet has copied them to /etc/nccl.conf on
# every GPU node (rolled out on all nodes with a cloud.google.com/gke-accelerator label).
- name: Check the NCCL settings through the Kubernetes API
  module_defaults:
    group/kubernetes.core.k8s:
      kubeconfig: "{{ gke_checks_kubeconfig }}"
      context: "{{ gke_checks_context }}"
  block:
    - name: Read the NCCL ConfigMap
      kubernetes.core.k8s_info:
        api_version: v1
        kind: ConfigMap
        namespace: "{{ gke_checks_nccl_namespace }}"
        name: "{{ gke_checks_nccl_name }}"
      register: gke_checks_nccl_config_map

    - name: Check that the ConfigMap holds the spec's NCCL settings
      vars:
        gke_checks_nccl_found: >-
          {{ (gke_checks_nccl_config_map.resources | first).data[gke_checks_nccl_key] | default(none)
             if gke_checks_nccl_config_map.resources | length > 0 else none }}
      ansible.builtin.assert:
        that: gke_checks_nccl_found == gke_checks_nccl_conf
        fail_msg: >-
          ConfigMap {{ gke_checks_nccl_namespace }}/{{ gke_checks_nccl_name }} key
          {{ gke_checks_nccl_key }} is {{ gke_checks_nccl_found | to_json }}, the spec's
          nccl.env gives {{ gke_checks_nccl_conf | to_json }} (edited by hand? terraform apply
          writes it back)
        quiet: true

    - name: List the GPU nodes
      kubernetes.core.k8s_info:
        kind: Node
        label_selectors:
          - cloud.google.com/gke-accelerator
      register: gke_checks_gpu_nodes

    - name: Wait for the NCCL DaemonSet to run on every GPU node
      block:
        - name: Wait for the NCCL DaemonSet to be ready and up to date on every GPU node
          kubernetes.core.k8s_info:
            api_version: apps/v1
            kind: DaemonSet
            namespace: "{{ gke_checks_nccl_namespace }}"
            name: "{{ gke_checks_nccl_name }}"
          register: gke_checks_nccl_daemonset
          until: >-
            gke_checks_nccl_daemonset.resources | length == 1
            and (gke_checks_nccl_daemonset.resources | first).status.desiredNumberScheduled | default(0)
            == gke_checks_gpu_nodes.resources | length
            and (gke_checks_nccl_daemonset.resources | first).status.numberReady | default(0)
            == gke_checks_gpu_nodes.resources | length
            and (gke_checks_nccl_daemonset.resources | first).status.updatedNumberScheduled | default(0)
            == gke_checks_gpu_nodes.resources | length
          retries: "{{ [gke_checks_retries | int, 1] | max }}"
          delay: "{{ gke_checks_delay | int }}"

      rescue:
        - name: Fail with the DaemonSet's figures
          vars:
            gke_checks_nccl_status: "{{ ((gke_checks_nccl_daemonset.resources | default([]) | first | default({})).status) | default({}) }}"
          ansible.builtin.fail:
            msg: >-
              DaemonSet {{ gke_checks_nccl_namespace }}/{{ gke_checks_nccl_name }}
              {% if gke_checks_nccl_daemonset.resources | default([]) | length == 0 %}not found (terraform apply creates it:
              kubernetes_daemon_set_v1.nccl_conf){% else %}is ready on {{ gke_checks_nccl_status.numberReady | default(0) }}
              and up to date on {{ gke_checks_nccl_status.updatedNumberScheduled | default(0) }} of
              {{ gke_checks_nccl_status.desiredNumberScheduled | default(0) }} scheduled node(s), for
              {{ gke_checks_gpu_nodes.resources | length }} GPU node(s){% endif %}
