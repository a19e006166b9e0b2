[=header]
---
# Play 05 on GKE, per node pool: a Job pinned to the pool (nodeSelector on its node pool, the
# tolerations of its taints, all of a node's GPUs) runs nvidia-smi and dcgmi diag at the spec's
# level, then nccl-tests' all_reduce_perf on one node; its logs are checked here, the measured
# bus bandwidth against the spec's threshold. The Job is deleted afterwards.
- name: Validate the pool with a Job on one of its nodes
  module_defaults:
    group/kubernetes.core.k8s:
      kubeconfig: "{{ gke_checks_kubeconfig }}"
      context: "{{ gke_checks_context }}"
  block:
    - name: Remove the validation Job of an earlier run
      kubernetes.core.k8s:
        state: absent
        api_version: batch/v1
        kind: Job
        namespace: "{{ gke_checks_validation_namespace }}"
        name: "{{ gke_checks_job_name }}"
        delete_options:
          propagationPolicy: Foreground
        wait: true
        wait_timeout: "{{ gke_checks_wait_seconds | int }}"

    - name: Run the validation Job and wait for it to complete
      block:
        - name: Run the validation Job and wait for it to complete
          kubernetes.core.k8s:
            state: present
            wait: true
            wait_condition:
              type: Complete
              status: "True"
            wait_timeout: "{{ gke_checks_job_timeout_seconds | int }}"
            template: validation-job.yaml.j2

      rescue:
        - name: Read the Job's state for the failure message
          kubernetes.core.k8s_info:
            api_version: batch/v1
            kind: Job
            namespace: "{{ gke_checks_validation_namespace }}"
            name: "{{ gke_checks_job_name }}"
          register: gke_checks_job_state

        - name: Fail naming the pool
          ansible.builtin.fail:
            msg: >-
              node pool {{ gke_checks_node_pool }}: validation Job
              {{ gke_checks_validation_namespace }}/{{ gke_checks_job_name }} did not complete within
              {{ gke_checks_job_timeout_seconds }} s ({{ ansible_failed_result.msg | default('') }});
              status {{ (gke_checks_job_state.resources | default([]) | first | default({})).status | default({}) | to_json }}

    - name: Read the GPU diagnostics log
      kubernetes.core.k8s_log:
        api_version: batch/v1
        kind: Job
        namespace: "{{ gke_checks_validation_namespace }}"
        name: "{{ gke_checks_job_name }}"
        container: gpu-diag
      register: gke_checks_diag_log

    - name: Read the NCCL test log
      kubernetes.core.k8s_log:
        api_version: batch/v1
        kind: Job
        namespace: "{{ gke_checks_validation_namespace }}"
        name: "{{ gke_checks_job_name }}"
        container: nccl
      register: gke_checks_nccl_log

    - name: Take the figures from the logs
      ansible.builtin.set_fact:
        gke_checks_gpus_seen: "{{ gke_checks_diag_log.log_lines | select('match', '^GPU [0-9]+: ') | list | length }}"
        gke_checks_smi_exit: "{{ gke_checks_diag_log.log | regex_findall('gpugen: nvidia-smi exit ([0-9]+)') | first | default('none') }}"
        gke_checks_dcgm_exit: "{{ gke_checks_diag_log.log | regex_findall('gpugen: dcgmi exit ([0-9]+)') | first | default('none') }}"
        gke_checks_nccl_exit: "{{ gke_checks_nccl_log.log | regex_findall('gpugen: all_reduce_perf exit ([0-9]+)') | first | default('none') }}"
        gke_checks_nccl_row: >-
          {{ gke_checks_nccl_log.log_lines | select('match', '^ *[0-9]+ +[0-9]+ +[a-z0-9_]+ ') | map('split') | list | last | default([]) }}

    - name: Check that the pod saw the GPUs it asked for
      ansible.builtin.assert:
        that:
          - gke_checks_smi_exit | string == '0'
          - gke_checks_gpus_seen | int == gke_checks_job_gpus | int
        fail_msg: >-
          node pool {{ gke_checks_node_pool }}: nvidia-smi listed {{ gke_checks_gpus_seen }} GPU(s)
          (exit {{ gke_checks_smi_exit }}), expected {{ gke_checks_job_gpus }}
        quiet: true

    - name: Check that dcgmi diag passed
      ansible.builtin.assert:
        that: gke_checks_dcgm_exit | string == '0'
        fail_msg: >-
          node pool {{ gke_checks_node_pool }}: dcgmi diag -r {{ validation_dcgm_diag_level }} exited
          {{ gke_checks_dcgm_exit }}: {{ gke_checks_diag_log.log_lines | select('search', 'Fail') | join('; ') }}
        quiet: true

    - name: Check the NCCL all-reduce bus bandwidth
      vars:
        gke_checks_nccl_measured: >-
          {{ (gke_checks_nccl_row[7] ~ ' GB/s busbw at ' ~ gke_checks_nccl_row[0] ~ ' B, ' ~ gke_checks_nccl_row[8] ~ ' wrong')
          if gke_checks_nccl_row | length > 8 else 'no result rows' }}
        gke_checks_nccl_expected: >-
          {{ ('busbw >= ' ~ validation_nccl_min_bus_bandwidth_gbps ~ ' GB/s')
          if validation_nccl_min_bus_bandwidth_gbps is not none else 'a result (no threshold)' }}
      ansible.builtin.assert:
        that:
          - gke_checks_nccl_exit | string == '0'
          - gke_checks_nccl_row | length > 8
          - gke_checks_nccl_row[8] in ['0', 'N/A']
          - validation_nccl_min_bus_bandwidth_gbps is none
            or gke_checks_nccl_row[7] | float >= validation_nccl_min_bus_bandwidth_gbps | float
        fail_msg: >-
          node pool {{ gke_checks_node_pool }}: nccl all_reduce_perf measured {{ gke_checks_nccl_measured }}
          (exit {{ gke_checks_nccl_exit }}), expected {{ gke_checks_nccl_expected }} at {{ validation_nccl_max_bytes }}
        success_msg: >-
          node pool {{ gke_checks_node_pool }}: {{ gke_checks_gpus_seen }} GPUs, dcgmi diag
          -r {{ validation_dcgm_diag_level }} passed, all_reduce busbw {{ gke_checks_nccl_row[7] }} GB/s
          at {{ gke_checks_nccl_row[0] }} B

  always:
    - name: Delete the validation Job
      kubernetes.core.k8s:
        state: absent
        api_version: batch/v1
        kind: Job
        namespace: "{{ gke_checks_validation_namespace }}"
        name: "{{ gke_checks_job_name }}"
        delete_options:
          propagationPolicy: Foreground
