<#if ansible.gke>
[=header]
---
# Checks a GKE GPU cluster from this controller, through the Kubernetes API (no SSH to nodes).
# Plays 00-02 (kernel, driver, container runtime) are GKE's job and the Terraform's: the node
# image, the GPU Operator's driver and toolkit, and the node pools are theirs, so they are not
# rendered here. Tags:
#   kubernetes  calls to the Kubernetes API (every task)
#   burn-in     the validation Jobs (dcgmi diag, nccl-tests)
# Example: ansible-playbook site.yml --skip-tags burn-in
- name: Check the GPU Operator
  ansible.builtin.import_playbook: 03-gpu-operator.yml

- name: Check the NCCL settings
  ansible.builtin.import_playbook: 04-network-tuning.yml

- name: Validate the node pools
  ansible.builtin.import_playbook: 05-validation.yml
<#else>
[=header]
---
# Turns fresh Ubuntu GPU nodes into validated Kubernetes GPU workers, in order; each play can
# also run on its own. Tags for skipping steps:
#   network     downloads from the internet (package repositories, installers, git)
#   hardware    needs a GPU node with the NVIDIA stack installed (GPUs, NVIDIA packages, services)
#   reboot      the reboots, which happen only when needed
#   kubernetes  calls to the Kubernetes API from the controller; helm: the chart installs
#               (preflight: play 03's cluster check; scheduler: play 05's; nccl-configmap)
#   burn-in     the long validation runs (gpu-burn, nccl-tests, dcgmi diag)
# Example: ansible-playbook site.yml --skip-tags burn-in
- name: Prepare the kernel
  ansible.builtin.import_playbook: 00-prerequisites.yml

- name: Install the NVIDIA driver and CUDA
  ansible.builtin.import_playbook: 01-nvidia-driver.yml

- name: Configure the container runtime
  ansible.builtin.import_playbook: 02-container-runtime.yml

- name: Deploy the GPU Operator
  ansible.builtin.import_playbook: 03-gpu-operator.yml

- name: Tune the NCCL network
  ansible.builtin.import_playbook: 04-network-tuning.yml

- name: Validate the nodes
  ansible.builtin.import_playbook: 05-validation.yml
</#if>
