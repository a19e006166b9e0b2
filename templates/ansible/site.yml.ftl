[=header]
---
# Turns fresh Ubuntu GPU nodes into validated Kubernetes GPU workers, in order; each play can
# also run on its own. Tags for skipping steps:
#   network     downloads from the internet (package repositories, installers, git)
#   hardware    needs a GPU node with the NVIDIA stack installed (GPUs, NVIDIA packages, services)
#   bootstrap   kubeadm init and join (play 02b): needs a booted host where kubelet can run
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

<#if ansible.kubernetes.kubeadm>
- name: Bootstrap the Kubernetes cluster with kubeadm and join the GPU nodes
  ansible.builtin.import_playbook: 02b-kubernetes.yml

</#if>
- name: Deploy the GPU Operator
  ansible.builtin.import_playbook: 03-gpu-operator.yml

- name: Tune the NCCL network
  ansible.builtin.import_playbook: 04-network-tuning.yml

- name: Validate the nodes
  ansible.builtin.import_playbook: 05-validation.yml
