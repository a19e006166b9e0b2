[=header]
---
# Play 03 on GKE, cluster part: the GPU Operator the Terraform installed (helm_release
# gpu_operator) has rolled out and reports its ClusterPolicy ready. Skipped when GKE installs the
# driver and device plugin itself (gke.gpuDriver: gke).
- name: Check the GPU Operator through the Kubernetes API
  when: gke_checks_gpu_operator | bool
  module_defaults:
    group/kubernetes.core.k8s:
      kubeconfig: "{{ gke_checks_kubeconfig }}"
      context: "{{ gke_checks_context }}"
  block:
    - name: Wait for the GPU Operator's deployments to roll out
      kubernetes.core.k8s_info:
        api_version: apps/v1
        kind: Deployment
        namespace: "{{ gke_checks_gpu_operator_namespace }}"
        wait: true
        wait_timeout: "{{ gke_checks_wait_seconds | int }}"
      register: gke_checks_deployments

    - name: Check that the GPU Operator is installed
      ansible.builtin.assert:
        that: gke_checks_deployments.resources | length > 0
        fail_msg: >-
          no Deployment in namespace {{ gke_checks_gpu_operator_namespace }} after
          {{ gke_checks_wait_seconds }} s: the GPU Operator is not installed (terraform apply
          installs it: helm_release.gpu_operator)
        quiet: true

    - name: Wait for the ClusterPolicy to be ready
      kubernetes.core.k8s_info:
        api_version: nvidia.com/v1
        kind: ClusterPolicy
      register: gke_checks_cluster_policy
      until: >-
        gke_checks_cluster_policy.resources | length > 0
        and gke_checks_cluster_policy.resources | map(attribute='status.state', default='')
        | reject('equalto', 'ready') | list | length == 0
      retries: "{{ [gke_checks_retries | int, 1] | max }}"
      delay: "{{ gke_checks_delay | int }}"

    - name: Wait for the GPU Operator's daemonsets to roll out
      kubernetes.core.k8s_info:
        api_version: apps/v1
        kind: DaemonSet
        namespace: "{{ gke_checks_gpu_operator_namespace }}"
        wait: true
        wait_timeout: "{{ gke_checks_wait_seconds | int }}"
      register: gke_checks_daemonsets

  rescue:
    - name: Read the GPU Operator's state for the failure message
      kubernetes.core.k8s_info:
        api_version: "{{ item.api_version }}"
        kind: "{{ item.kind }}"
        namespace: "{{ item.namespace | default(omit) }}"
      loop:
        - {api_version: apps/v1, kind: Deployment, namespace: "{{ gke_checks_gpu_operator_namespace }}"}
        - {api_version: apps/v1, kind: DaemonSet, namespace: "{{ gke_checks_gpu_operator_namespace }}"}
        - {api_version: nvidia.com/v1, kind: ClusterPolicy}
      loop_control:
        label: "{{ item.kind }}"
      register: gke_checks_operator_state

    - name: Fail with what is not ready
      ansible.builtin.fail:
        msg: >-
          the GPU Operator is not ready: {{ ansible_failed_result.msg | default('') }};
          {% for r in gke_checks_operator_state.results %}{% for o in r.resources | default([]) %}{{ o.kind }} {{ o.metadata.name }}
          {% if o.kind == 'Deployment' %}available {{ o.status.availableReplicas | default(0) }}/{{ o.spec.replicas | default(1) }}
          {% elif o.kind == 'DaemonSet' %}ready {{ o.status.numberReady | default(0) }}/{{ o.status.desiredNumberScheduled | default(0) }}
          {% else %}state {{ o.status.state | default('none') }}{% endif %};
          {% endfor %}{% endfor %}
