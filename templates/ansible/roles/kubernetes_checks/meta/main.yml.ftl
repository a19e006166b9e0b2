[=header]
---
galaxy_info:
  role_name: kubernetes_checks
  namespace: gpugen
  author: gpugen
  description: Proves every GPU host is a Ready node of the cluster and that the scheduler sees its GPUs and EFA devices
  # The gpugen project has not chosen a license yet.
  license: proprietary
  min_ansible_version: "2.14"
  # The tasks run on the controller (delegate_to localhost) against the cluster's API.
  platforms:
    - name: Ubuntu
      versions:
        - all
  galaxy_tags: [nvidia, gpu, kubernetes, scheduler]
dependencies: []
