<#if ansible.provider == "aws">
#!/bin/sh
[=header]
#
# The Ansible dynamic inventory of this cluster's EC2 instances:
#   ansible-playbook -i gpugen-inventory site.yml
# Ansible runs it with --list (or --host NAME) and nothing else, so its settings live in
# gpugen-inventory.json beside it, each overridable by a GPUGEN_* variable; AWS credentials
# and region come from the usual AWS variables and profiles. It runs the gpugen jar named by
# GPUGEN_JAR, else the gpugen command on PATH. `gpugen inventory --help` lists the settings.
config="$(dirname "$0")/gpugen-inventory.json"
if [ -n "${GPUGEN_JAR:-}" ]; then
  exec java ${GPUGEN_JAVA_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xms64m} -jar "$GPUGEN_JAR" inventory --config "$config" "$@"
fi
if command -v gpugen >/dev/null 2>&1; then
  exec gpugen inventory --config "$config" "$@"
fi
echo "gpugen-inventory: set GPUGEN_JAR to the gpugen jar, or put gpugen on PATH" >&2
exit 3
</#if>
