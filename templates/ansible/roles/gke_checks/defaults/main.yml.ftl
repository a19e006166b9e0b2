[=header]
---
# Role gke_checks (plays 03, 04, 05 on GKE): checks, from this controller, what the Terraform
# installed on the cluster, through the Kubernetes API (kubernetes.core; needs the Python
# kubernetes client, Debian package python3-kubernetes). It installs nothing: the node pools, the
# GPU Operator's helm release and /etc/nccl.conf are the Terraform's, so that no two tools own
# the same object. The spec's values (context, NCCL settings, per-pool figures) are in group_vars.

# The kubeconfig and its context: `gcloud container clusters get-credentials` writes the context
# gke_PROJECT_ZONE_CLUSTER (gke_checks_context in group_vars/all.yml). Override with -e.
gke_checks_kubeconfig: "{{ lookup('ansible.builtin.env', 'KUBECONFIG') or '~/.kube/config' }}"

# Where the Terraform puts things (gke-gpu-operator.tf, gke-nccl.tf).
gke_checks_gpu_operator_namespace: gpu-operator
gke_checks_nccl_namespace: kube-system
gke_checks_nccl_name: gpugen-nccl-conf
gke_checks_nccl_key: nccl.conf

# How long to wait for roll-outs (seconds), and how often to look again for GPUs and the
# ClusterPolicy (retries x delay seconds).
gke_checks_wait_seconds: 900
gke_checks_retries: 60
gke_checks_delay: 10

# The validation Job of play 05, one per pool: an init container runs nvidia-smi and dcgmi diag,
# then the main container runs nccl-tests' all_reduce_perf on all the node's GPUs. The images are
# settings, not spec values: any image with nvidia-smi, nv-hostengine and dcgmi (the first) and
# an all_reduce_perf build (the second) will do; pin them by digest in production.
gke_checks_validation_namespace: default
gke_checks_dcgm_image: nvcr.io/nvidia/cloud-native/dcgm:4.2.3-1-ubuntu22.04
gke_checks_nccl_image: nvcr.io/nvidia/pytorch:25.01-py3
gke_checks_nccl_tests_binary: all_reduce_perf_mpi
gke_checks_job_timeout_seconds: 3600
# A Job left behind (a controller that died mid-run) is garbage-collected by Kubernetes.
gke_checks_job_ttl_seconds: 3600
