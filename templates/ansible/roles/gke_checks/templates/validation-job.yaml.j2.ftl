[=jinjaHeader]
# The validation Job of one node pool (play 05 on GKE). Every value goes through to_json, so a
# value is one YAML scalar whatever it holds. Each step prints its exit status and the container
# exits 0: the play reads every figure from the logs, and a Job that does not complete is a
# failure of its own.
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ gke_checks_job_name | to_json }}
  namespace: {{ gke_checks_validation_namespace | to_json }}
  labels:
    app.kubernetes.io/managed-by: gpugen
    gpugen-pool: {{ gke_checks_node_pool | to_json }}
spec:
  backoffLimit: 0
  ttlSecondsAfterFinished: {{ gke_checks_job_ttl_seconds | int }}
  template:
    metadata:
      labels:
        app.kubernetes.io/managed-by: gpugen
        gpugen-pool: {{ gke_checks_node_pool | to_json }}
    spec:
      restartPolicy: Never
      nodeSelector:
        cloud.google.com/gke-nodepool: {{ gke_checks_node_pool | to_json }}
      tolerations: {{ gke_checks_tolerations | to_json }}
      initContainers:
        - name: gpu-diag
          image: {{ gke_checks_dcgm_image | to_json }}
          command:
            - /bin/sh
            - -c
            - >-
              nvidia-smi -L; echo "gpugen: nvidia-smi exit $?";
              nv-hostengine >/dev/null 2>&1;
              dcgmi diag -r "$GPUGEN_DCGM_DIAG_LEVEL"; echo "gpugen: dcgmi exit $?"
          env:
            - name: GPUGEN_DCGM_DIAG_LEVEL
              value: {{ validation_dcgm_diag_level | string | to_json }}
          resources:
            limits:
              nvidia.com/gpu: {{ gke_checks_job_gpus | string | to_json }}
      containers:
        - name: nccl
          image: {{ gke_checks_nccl_image | to_json }}
          command:
            - /bin/sh
            - -c
            - >-
              "$GPUGEN_NCCL_TESTS" -b 8 -e "$GPUGEN_NCCL_MAX_BYTES" -f 2 -g "$GPUGEN_GPUS";
              echo "gpugen: all_reduce_perf exit $?"
          env:
            - name: GPUGEN_NCCL_TESTS
              value: {{ gke_checks_nccl_tests_binary | to_json }}
            - name: GPUGEN_NCCL_MAX_BYTES
              value: {{ validation_nccl_max_bytes | string | to_json }}
            - name: GPUGEN_GPUS
              value: {{ gke_checks_job_gpus | string | to_json }}
          resources:
            limits:
              nvidia.com/gpu: {{ gke_checks_job_gpus | string | to_json }}
