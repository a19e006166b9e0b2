[=header]
---
galaxy_info:
  role_name: gke_checks
  namespace: gpugen
  author: gpugen
  description: Checks a GKE GPU cluster through the Kubernetes API (GPU Operator, NCCL settings, validation Jobs)
  # The gpugen project has not chosen a license yet.
  license: proprietary
  min_ansible_version: "2.14"
  # Runs on the controller (connection local) against the cluster's API, not on the nodes.
  platforms:
    - name: Ubuntu
      versions:
        - all
  galaxy_tags: [nvidia, gpu, gke, kubernetes]
dependencies: []
