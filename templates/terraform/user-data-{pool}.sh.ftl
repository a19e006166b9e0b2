<#assign p = terraform.pullScript(pool.name)>
#!/bin/bash
[=header]
#
# Pull mode, pool [=comment(p.pool)]: the user data of the pool's launch template. cloud-init runs
# it at first boot; it copies itself to the per-boot scripts and runs at every boot until the node
# has reported once. It installs Ansible when the image has none, fetches the rendered ansible/
# folder (the same roles and plays as push mode), applies site.yml to this node with -c local,
# and reports the validation result: s3://BUCKET/[=comment(p.reportsPrefix)]/<role-id>:<instance-id>.json
# (when the spec names a bucket) and the EC2 tag gpugen:validation=passed|failed on itself.
# Skipped on the node: [=comment(p.skipTags)] (the chart and the Kubernetes API calls stay with
# the controller or GitOps; this script reboots instead of Ansible's reboot module).
# Values are shell-quoted by gpugen; no credentials: the node uses its instance profile.
set -euo pipefail
umask 022

cluster=[=sh(p.cluster)]
pool=[=sh(p.pool)]
inventory=[=sh(p.inventory)]
source=[=sh(p.source)]
bucket=[=sh(p.bucket)]
bundle_prefix=[=sh(p.bundlePrefix)]
reports_prefix=[=sh(p.reportsPrefix)]
git_url=[=sh(p.gitUrl)]
git_ref=[=sh(p.gitRef)]
git_path=[=sh(p.gitPath)]
spec_sha256=[=sh(p.specSha256)]
bundle_sha256=[=sh(bundleSha256)]
ansible_core=[=sh(p.ansibleCore)]
skip_tags=[=sh(p.skipTags)]

state=/var/lib/gpugen/pull
bundle=$state/bundle
venv=/opt/gpugen/ansible
self=/var/lib/cloud/scripts/per-boot/gpugen-pull.sh
mkdir -p "$state"
exec >>"$state/pull.log" 2>&1
echo "gpugen pull: cluster $cluster pool $pool spec $spec_sha256, $(date -u +%Y-%m-%dT%H:%M:%SZ)"

# Run again after a reboot until the node has reported (cloud-init runs user data once).
if [ "$(readlink -f "$0")" != "$self" ]; then
  mkdir -p "$(dirname "$self")"
  install -m 0700 "$0" "$self"
fi

# IMDSv2: a session token first (launch templates require it), then the instance's identity.
imds=http://169.254.169.254/latest
token=$(curl -sS --fail --retry 5 --connect-timeout 2 -X PUT \
  -H 'X-aws-ec2-metadata-token-ttl-seconds: 21600' "$imds/api/token")
meta() {
  curl -sS --fail --retry 5 --connect-timeout 2 -H "X-aws-ec2-metadata-token: $token" "$imds/meta-data/$1"
}
instance_id=$(meta instance-id)
region=$(meta placement/region)
case "$instance_id" in
  i-[0-9a-f]*) ;;
  *) echo "gpugen pull: unexpected instance id from IMDS" >&2; exit 1 ;;
esac
case "$region" in
  *[!a-z0-9-]* | "") echo "gpugen pull: unexpected region from IMDS" >&2; exit 1 ;;
esac

<#if p.lustre>
# FSx for Lustre: Terraform tags this node with the file system's DNS and mount names, readable in
# its instance metadata (instance_metadata_tags; https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/work-with-tags-in-IMDS.html).
# They reach the roles as the variables gpugen-inventory gives a pushed node. A missing or odd value
# is left empty: role lustre_client then fails the run with what is missing, and the node reports
# failed.
tag() {
  curl -sS --fail --retry 5 --connect-timeout 2 -H "X-aws-ec2-metadata-token: $token" \
    "$imds/meta-data/tags/instance/$1" || echo "gpugen pull: no tag $1 in the instance metadata" >&2
}
lustre_dns_name=$(tag gpugen:lustre-dns-name)
lustre_mount_name=$(tag gpugen:lustre-mount-name)
case "$lustre_dns_name" in *[!a-z0-9.-]*) lustre_dns_name= ;; esac
case "$lustre_mount_name" in *[!A-Za-z0-9_-]*) lustre_mount_name= ;; esac
lustre_vars=$state/lustre-vars.json
printf '{"gpugen_lustre_dns_name": "%s", "gpugen_lustre_mount_name": "%s"}\n' \
  "$lustre_dns_name" "$lustre_mount_name" >"$lustre_vars"

</#if>
# Ansible (unless the image has it) and the AWS CLI.
if ! command -v ansible-playbook >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q python3-venv git
  [ -x "$venv/bin/ansible-playbook" ] || {
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "$ansible_core"
  }
  export PATH="$venv/bin:$PATH"
  fresh_ansible=true
else
  fresh_ansible=false
fi
command -v aws >/dev/null || snap install aws-cli --classic
if [ "$source" = git ]; then
  command -v git >/dev/null || { apt-get update -q && apt-get install -y -q git; }
fi

# The bundle: this spec version's rendered ansible/ folder, fetched afresh each boot.
rm -rf "$bundle" "$state/checkout"
git_commit=
if [ "$source" = s3 ]; then
  aws s3 cp --recursive --only-show-errors --region "$region" \
    "s3://$bucket/$bundle_prefix/" "$bundle/"
else
  git init -q "$state/checkout"
  git -C "$state/checkout" fetch -q --depth 1 -- "$git_url" "$git_ref"
  git -C "$state/checkout" checkout -q --detach FETCH_HEAD
  # The commit the ref named at this boot: the report records what ran.
  git_commit=$(git -C "$state/checkout" rev-parse HEAD)
  mv "$state/checkout/$git_path" "$bundle"
  rm -rf "$state/checkout"
fi
[ -f "$bundle/site.yml" ] && [ -f "$bundle/$inventory" ] || {
  echo "gpugen pull: the bundle has no site.yml or $inventory" >&2
  exit 1
}

# Every booting node runs the bundle as root: it must be, entry for entry, the one rendered with
# this user data, whoever could write to the bucket or push to the branch since. The digest is the
# SHA-256 of a listing of every folder ("d PATH") and file ("f SHA256 PATH") fetched, dotfiles
# included, sorted in byte order: an added file or folder (Ansible reads group_vars/all/ instead
# of group_vars/all.yml) changes it. Names are read NUL-separated, and one outside [A-Za-z0-9._/-]
# (a line feed would split a line), an entry that is neither a file nor a folder, or any error
# refuses the bundle.
bundle_listing() (
  export LC_ALL=C
  cd "$bundle" || exit 1
  find . -mindepth 1 -printf '%P\0' >"$state/bundle.names" || exit 1
  sort -z -o "$state/bundle.names" "$state/bundle.names" || exit 1
  while IFS= read -r -d '' name; do
    case "$name" in
      "" | *[!A-Za-z0-9._/-]*)
        echo "gpugen pull: refused name in the bundle: $(printf %q "$name")" >&2
        exit 1 ;;
    esac
    if [ -L "$name" ]; then
      echo "gpugen pull: refused symbolic link in the bundle: $name" >&2
      exit 1
    elif [ -d "$name" ]; then
      printf 'd %s\n' "$name"
    elif [ -f "$name" ]; then
      sum=$(sha256sum -- "$name") || exit 1
      printf 'f %s %s\n' "${sum%% *}" "$name"
    else
      echo "gpugen pull: refused special file in the bundle: $name" >&2
      exit 1
    fi
  done <"$state/bundle.names"
)
bundle_ok=false
bundle_actual=unreadable
if bundle_listing >"$state/bundle.listing"; then
  bundle_actual=$(sha256sum <"$state/bundle.listing" | cut -d' ' -f1)
  [ "$bundle_actual" != "$bundle_sha256" ] || bundle_ok=true
fi
if [ "$bundle_ok" != true ]; then
  echo "gpugen pull: the bundle is not the one this node was launched with (SHA-256 of its listing $bundle_actual, expected $bundle_sha256); not running it" >&2
fi

if [ "$fresh_ansible" = true ] && [ "$bundle_ok" = true ]; then
  ansible-galaxy collection install -r "$bundle/requirements.yml" -p "$bundle/collections"
  export ANSIBLE_COLLECTIONS_PATH="$bundle/collections"
fi

# The same plays as push mode, applied by this node to itself. Its inventory is YAML; the bundle's
# ansible.cfg enables only the script plugin, for the controller's gpugen-inventory. Facts are
# cached in memory only: nothing is read from or left in the bundle's .cache/.
rc=3
if [ "$bundle_ok" = true ]; then
  rc=0
  (cd "$bundle" && ANSIBLE_INVENTORY_ENABLED=yaml ANSIBLE_CACHE_PLUGIN=memory ansible-playbook -c local -i "$inventory" --skip-tags "$skip_tags"<#if p.lustre> -e "@$lustre_vars"</#if> site.yml) || rc=$?
  echo "gpugen pull: ansible-playbook exited $rc"
fi

# A new driver loads at boot: the first failing run reboots once and runs again.
if [ "$bundle_ok" = true ] && { [ "$rc" -ne 0 ] || [ -f /var/run/reboot-required ]; }; then
  if [ ! -e "$state/rebooted-$spec_sha256" ]; then
    touch "$state/rebooted-$spec_sha256"
    echo "gpugen pull: rebooting once, then running again"
    systemctl reboot
    exit 0
  fi
fi

# The report: play 05's result on this node, or the run's failure.
python3 - "$state/report.json" "$rc" "$instance_id" "$cluster" "$pool" "$spec_sha256" \
  "$bundle_sha256" "$bundle_ok" "$git_commit" <<'PY'
import json, sys
out, rc, instance_id, cluster, pool, spec, bundle, bundle_ok, commit = sys.argv[1:10]
try:
    with open("/var/lib/gpugen/validation-report.json") as f:
        node = json.load(f)
except (OSError, ValueError):
    node = None
checks = (node or {}).get("checks", {})
passed = rc == "0" and node is not None and node.get("passed") is True
report = {
    "bandwidth_gbps": checks.get("nccl_all_reduce", {}).get("busbw_gbps"),
    "bundle_sha256": bundle,
    "bundle_verified": bundle_ok == "true",
    "cluster": cluster,
    "driver": checks.get("driver_version", {}).get("measured"),
    "exit_code": int(rc),
    "git_commit": commit or None,
    "instance_id": instance_id,
    "pool": pool,
    "spec_sha256": spec,
    "status": "passed" if passed else "failed",
    "validation": node,
}
with open(out, "w") as f:
    json.dump(report, f, indent=2, sort_keys=True)
    f.write("\n")
print(report["status"])
PY
status=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["status"])' "$state/report.json")
if [ -n "$bucket" ]; then
  # A node may write only its own report: the role allows the key ${aws:userid}.json, which IAM
  # resolves to "<role id>:<instance id>" for an instance profile's credentials.
  # https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_variables.html
  caller=$(aws sts get-caller-identity --region "$region" --query UserId --output text)
  case "$caller" in
    AROA*:"$instance_id") ;;
    *) echo "gpugen pull: unexpected caller identity $caller" >&2; exit 1 ;;
  esac
  aws s3 cp --only-show-errors --region "$region" --content-type application/json \
    "$state/report.json" "s3://$bucket/$reports_prefix/$caller.json"
fi
aws ec2 create-tags --region "$region" --resources "$instance_id" \
  --tags "Key=gpugen:validation,Value=$status"
rm -f "$self"
echo "gpugen pull: reported $status"
[ "$status" = passed ]
