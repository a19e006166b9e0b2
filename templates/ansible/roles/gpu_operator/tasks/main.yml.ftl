[=header]
---
<#if argocd.enabled>
- name: Check the ArgoCD settings
  ansible.builtin.assert:
    that:
      - gpu_operator_argocd_applications | length > 0
      - gpu_operator_argocd_retries | int >= 1
    fail_msg: gpu_operator_argocd_applications must list the gpugen Applications (group_vars/all.yml)
    quiet: true

# ArgoCD owns the chart and its configuration (argocd/ in the render): this play installs nothing,
# so the two never fight. It waits until every gpugen Application is Synced and Healthy.
- name: Check the ArgoCD Applications
  delegate_to: localhost
  run_once: true
  become: false
  tags: [kubernetes, network]
  block:
    - name: Wait for each gpugen Application to be Synced and Healthy
      kubernetes.core.k8s_info:
        api_version: argoproj.io/v1alpha1
        kind: Application
        name: "{{ item }}"
        namespace: "{{ gpu_operator_argocd_namespace }}"
        kubeconfig: "{{ gpu_operator_kubeconfig | default(omit, true) }}"
      loop: "{{ gpu_operator_argocd_applications }}"
      register: gpu_operator_argocd_apps
      until: >-
        (gpu_operator_argocd_apps.resources | default([]) | length == 1)
        and (gpu_operator_argocd_apps.resources[0].status.sync.status | default('')) == 'Synced'
        and (gpu_operator_argocd_apps.resources[0].status.health.status | default('')) == 'Healthy'
      retries: "{{ gpu_operator_argocd_retries | int }}"
      delay: "{{ gpu_operator_argocd_delay | int }}"
      # The next task fails with each Application's name and status instead.
      failed_when: false

    - name: Fail unless every gpugen Application is Synced and Healthy
      ansible.builtin.assert:
        that:
          - item.resources | default([]) | length == 1
          - (item.resources[0].status.sync.status | default('')) == 'Synced'
          - (item.resources[0].status.health.status | default('')) == 'Healthy'
        fail_msg: >-
          ArgoCD Application {{ gpu_operator_argocd_namespace }}/{{ item.item }} is
          {{ 'missing' if (item.resources | default([]) | length == 0) else
             'sync ' ~ (item.resources[0].status.sync.status | default('unknown')) ~
             ', health ' ~ (item.resources[0].status.health.status | default('unknown')) }}
          (want Synced and Healthy){{ ': ' ~ item.msg if item.msg is defined else '' }}
        quiet: true
      loop: "{{ gpu_operator_argocd_apps.results }}"
      loop_control:
        label: "{{ item.item }}"

<#else>
- name: Check the GPU Operator settings
  ansible.builtin.assert:
    that:
      - gpu_operator_version is match('^v[0-9]+[.][0-9]+[.][0-9]+$')
      - gpu_operator_values | length > 0
    fail_msg: >-
      gpu_operator_version must be a chart version with its leading v (e.g. v25.3.0), and
      gpu_operator_values the chart values (group_vars/all.yml)
    quiet: true

- name: Write the chart's values and manifests on the controller
  delegate_to: localhost
  run_once: true
  become: false
  block:
    - name: Create the folder for the values
      ansible.builtin.file:
        path: "{{ gpu_operator_values_dir }}"
        state: directory
        mode: "0755"

    - name: Write the chart values
      ansible.builtin.template:
        src: values.yaml.j2
        dest: "{{ gpu_operator_values_dir }}/gpu-operator-values.yaml"
        mode: "0644"

    - name: Write the time-slicing ConfigMap
      ansible.builtin.template:
        src: time-slicing-config.yaml.j2
        dest: "{{ gpu_operator_values_dir }}/gpu-operator-time-slicing.yaml"
        mode: "0644"
      when: gpu_operator_device_plugin_replicas | length > 0

- name: Install the chart
  delegate_to: localhost
  run_once: true
  become: false
  tags: [helm, kubernetes, network]
  block:
    - name: Add the NVIDIA Helm repository
      kubernetes.core.helm_repository:
        name: "{{ gpu_operator_chart_repo_name }}"
        repo_url: "{{ gpu_operator_chart_repo_url }}"

    - name: Create the operator's namespace
      kubernetes.core.k8s:
        api_version: v1
        kind: Namespace
        name: "{{ gpu_operator_namespace }}"
        state: present
        kubeconfig: "{{ gpu_operator_kubeconfig | default(omit, true) }}"

    - name: Apply the time-slicing ConfigMap
      kubernetes.core.k8s:
        src: "{{ gpu_operator_values_dir }}/gpu-operator-time-slicing.yaml"
        state: present
        kubeconfig: "{{ gpu_operator_kubeconfig | default(omit, true) }}"
      when: gpu_operator_device_plugin_replicas | length > 0

    - name: Install the GPU Operator at the spec's chart version
      kubernetes.core.helm:
        release_name: "{{ gpu_operator_release_name }}"
        chart_ref: "{{ gpu_operator_chart_repo_name }}/gpu-operator"
        chart_version: "{{ gpu_operator_version }}"
        release_namespace: "{{ gpu_operator_namespace }}"
        values_files:
          - "{{ gpu_operator_values_dir }}/gpu-operator-values.yaml"
        update_repo_cache: true
        wait: true
        wait_timeout: "{{ gpu_operator_helm_wait_timeout }}"
        kubeconfig: "{{ gpu_operator_kubeconfig | default(omit, true) }}"

# Pods have their own /etc: the NCCL settings reach them as a ConfigMap to mount (nccl.conf, the
# file /etc/nccl.conf holds on the host), one per workload namespace.
- name: Give pods the NCCL settings
  delegate_to: localhost
  run_once: true
  become: false
  tags: [kubernetes, network, nccl-configmap]
  block:
    - name: Apply the NCCL ConfigMap in each workload namespace
      kubernetes.core.k8s:
        state: present
        kubeconfig: "{{ gpu_operator_kubeconfig | default(omit, true) }}"
        definition:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: "{{ gpu_operator_nccl_configmap_name }}"
            namespace: "{{ item }}"
            labels:
              app.kubernetes.io/managed-by: gpugen
          data:
            nccl.conf: "{{ gpu_operator_nccl_conf }}"
      loop: "{{ gpu_operator_nccl_namespaces }}"

<#if ansible.rdmaDevicePlugin()>
# InfiniBand/RoCE: the HCAs reach pods only through an RDMA device plugin. Not waited for: the
# plugin finds the HCAs once play 04 has installed rdma-core (its periodic update, 300 s), and
# play 05's pod check proves it.
- name: Deploy the RDMA shared device plugin
  delegate_to: localhost
  run_once: true
  become: false
  when: gpu_operator_rdma_device_plugin | bool
  tags: [kubernetes, network, rdma-device-plugin]
  block:
    - name: Apply the RDMA shared device plugin's configuration
      kubernetes.core.k8s:
        state: present
        kubeconfig: "{{ gpu_operator_kubeconfig | default(omit, true) }}"
        definition:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: rdma-devices
            namespace: "{{ gpu_operator_rdma_namespace }}"
            labels:
              app.kubernetes.io/managed-by: gpugen
          data:
            config.json: "{{ gpu_operator_rdma_config | to_json }}"

    - name: Apply the RDMA shared device plugin's DaemonSet
      kubernetes.core.k8s:
        state: present
        kubeconfig: "{{ gpu_operator_kubeconfig | default(omit, true) }}"
        definition:
          apiVersion: apps/v1
          kind: DaemonSet
          metadata:
            name: rdma-shared-dp-ds
            namespace: "{{ gpu_operator_rdma_namespace }}"
            labels:
              app.kubernetes.io/managed-by: gpugen
          spec:
            selector:
              matchLabels:
                name: rdma-shared-dp-ds
            template:
              metadata:
                labels:
                  name: rdma-shared-dp-ds
              spec:
                hostNetwork: true
                priorityClassName: system-node-critical
                tolerations: "{{ gpu_operator_rdma_tolerations }}"
                containers:
                  - name: k8s-rdma-shared-dp-ds
                    image: "{{ gpu_operator_rdma_image }}"
                    imagePullPolicy: IfNotPresent
                    securityContext:
                      privileged: true
                    volumeMounts:
                      - name: device-plugin
                        mountPath: /var/lib/kubelet/device-plugins
                      - name: plugins-registry
                        mountPath: /var/lib/kubelet/plugins_registry
                      - name: config
                        mountPath: /k8s-rdma-shared-dev-plugin
                      - name: devs
                        mountPath: /dev/
                volumes:
                  - name: device-plugin
                    hostPath:
                      path: /var/lib/kubelet/device-plugins
                  - name: plugins-registry
                    hostPath:
                      path: /var/lib/kubelet/plugins_registry
                  - name: config
                    configMap:
                      name: rdma-devices
                      items:
                        - key: config.json
                          path: config.json
                  - name: devs
                    hostPath:
                      path: /dev/

</#if>
</#if>
- name: Label and taint the node
  delegate_to: localhost
  become: false
  tags: [kubernetes, network]
  block:
    - name: Label the node
      kubernetes.core.k8s:
        api_version: v1
        kind: Node
        name: "{{ gpu_operator_node_name }}"
        state: patched
        definition:
          metadata:
            labels: "{{ gpu_operator_node_labels }}"
        kubeconfig: "{{ gpu_operator_kubeconfig | default(omit, true) }}"
      when: gpu_operator_node_labels | length > 0

    - name: Taint the node
      kubernetes.core.k8s_taint:
        name: "{{ gpu_operator_node_name }}"
        state: present
        taints: "{{ gpu_operator_node_taints }}"
        kubeconfig: "{{ gpu_operator_kubeconfig | default(omit, true) }}"
      when: gpu_operator_node_taints | length > 0
