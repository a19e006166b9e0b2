[=header]
---
# Rolling driver upgrade. Change software.driver in the spec, render again, then run
#   ansible-playbook upgrade-driver.yml [-e gpugen_upgrade_batch=2]
# A batch of nodes at a time is cordoned and drained, gets the new driver (and a reboot to load
# it), runs the single-node validation and is uncordoned only when that passed. A failed node
# stays cordoned, and max_fail_percentage 0 stops the rollout before the next batch.
- name: Upgrade the NVIDIA driver one batch of nodes at a time
  hosts: gpu_nodes
  become: true
  gather_facts: true
  gather_subset:
    - "!all"
  serial: "{{ gpugen_upgrade_batch | default('10%') }}"
  max_fail_percentage: 0
  vars:
    nvidia_driver_allow_upgrade: true
    validation_nccl_multi_node: false
  pre_tasks:
    - name: Cordon and drain the node
      ansible.builtin.include_role:
        name: gpu_operator
        tasks_from: drain.yml
  roles:
    - role: nvidia_driver
    - role: container_runtime
    - role: validation
  post_tasks:
    - name: Uncordon the node
      ansible.builtin.include_role:
        name: gpu_operator
        tasks_from: uncordon.yml
