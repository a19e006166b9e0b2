[=header]
# Run ansible-playbook from this folder so that this file applies (Ansible reads ./ansible.cfg).

[defaults]
<#if inventory.staticHosts>
# The static inventory beside this file (the spec's hosts). Override with -i.
inventory = inventory.yml
<#elseif ansible.gke>
# The static inventory beside this file: the GKE cluster and one host per node pool, all run on
# this controller against the Kubernetes API (GKE and Terraform manage the nodes themselves).
inventory = inventory.yml
<#else>
# The dynamic inventory beside this file (EC2 tags). Override with -i.
inventory = gpugen-inventory
</#if>
<#if inventory.loginUser?has_content>
# The login user of the image: Canonical's Ubuntu AMIs accept only "ubuntu" (AWS EC2 user guide,
# "Manage system users on your Linux instance"). The key is cloud.sshKeyName's private key.
remote_user = [=id(inventory.loginUser)]
</#if>
roles_path = roles
forks = [=ansible.forks]
# Facts are gathered once and cached per host; plays gather only the minimal subset
# (gather_subset in each play: the ansible.cfg setting of that name is deprecated).
gathering = smart
fact_caching = jsonfile
fact_caching_connection = .cache/facts
fact_caching_timeout = 7200
# Per-task timings at the end of a run, to find the slow step across 100 nodes.
callbacks_enabled = ansible.posix.profile_tasks
interpreter_python = auto_silent
retry_files_enabled = False

[inventory]
# Only the plugins this tree uses: any other that accepts a file would try it after a failure and
# bury the real error under its own parse errors (yaml and ini accept a file without extension,
# such as gpugen-inventory). host_list reads -i host1,host2 and never a file.
<#if inventory.staticHosts || ansible.gke>
# yaml reads inventory.yml.
# An INI inventory of your own: ANSIBLE_INVENTORY_ENABLED=ini ansible-playbook -i hosts.ini ...
enable_plugins = host_list, yaml
<#else>
# script runs gpugen-inventory (a pulling node names its YAML inventory itself).
# A YAML inventory of your own: ANSIBLE_INVENTORY_ENABLED=yaml ansible-playbook -i hosts.yml ...
enable_plugins = host_list, script
</#if>
# An inventory script that fails must fail the run, not end in "no hosts matched" with exit 0.
unparsed_is_failed = True
<#if !(inventory.staticHosts || ansible.gke)>

[inventory_plugin_script]
# Ansible prints a successful script's stderr as "[ERROR]: ..." (always_show_stderr, on by
# default), and gpugen-inventory writes only warnings there when it succeeds (EC2 values it
# dropped): `gpugen inventory --list` in this folder shows them. A failing run's message is shown
# either way, and fails the run.
always_show_stderr = False
</#if>

[ssh_connection]
pipelining = True
ssh_args = -o ControlMaster=auto -o ControlPersist=300s -o ServerAliveInterval=30
