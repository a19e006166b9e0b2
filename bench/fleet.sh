#!/usr/bin/env bash
# The controller side of push mode as hosts grow, and the per-node cost of pull mode, on chroot
# hosts only (no SSH, no network: every host is a copy of the debootstrap test root).
#
#   bench/fleet.sh                    # 1, 10 and 50 hosts, medians of 3 runs
#   SIZES="1 10" RUNS=5 bench/fleet.sh
#   RUNS=1 bench/fleet.sh             # one run per size; the default (RUNS=3) took about 15 min on 2 idle cores
#
# Hosts are hard-link copies (cp -al) of the root scripts/make-test-root builds: cheap (no data
# copied). That is safe because Ansible replaces files by rename (a new inode), never in place;
# the script checks it: after the runs, no file of the shared template may have a newer mtime.
# The render is examples/aws-h100 (push mode, forks from the spec: 50). Every host is configured
# once (plays 00 and 04), then timed, per size N, in the same run:
#   - push: ansible-playbook 00-prerequisites.yml 04-network-tuning.yml on N chroot hosts, from
#     the rendered folder (its ansible.cfg: forks, fact cache), an idempotent run (changed=0
#     checked), with the fact cache cleared first so facts are gathered as on a fresh controller;
#   - pull: the same two plays applied by one node to itself, ansible-playbook -c local inside
#     its chroot (the host's ansible from /usr, bound read-only in a private mount namespace).
# Reported: median wall time, the ratio to the 1-host push run, and user+sys CPU of the whole
# ansible-playbook process tree (GNU time) per host. Through a chroot the modules run on this
# machine too, so the push CPU includes what real nodes would spend themselves: an upper bound
# on the controller's share. Skipped tags as in the tests: hardware,network,reboot,helm,
# kubernetes,burn-in (the steps a chroot cannot run).
#
# Needs: root, debootstrap (scripts/install-test-deps), ansible-playbook, unshare, GNU time.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
RUNS=${RUNS:-3}
SIZES=${SIZES:-"1 10 50"}
SKIP=hardware,network,reboot,helm,kubernetes,burn-in
TIME=/usr/bin/time

[ "$(id -u)" -eq 0 ] || { echo "bench: must run as root (chroot)" >&2; exit 2; }
for tool in ansible-playbook unshare "$TIME"; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }
done
max=0
for n in $SIZES; do [ "$n" -gt "$max" ] && max=$n; done

template=$(scripts/make-test-root | tail -n 1)
work=$(mktemp -d /tmp/gpugen-fleet.XXXXXX)
cleanup() {
  # Only our copies; --one-file-system never follows into anything mounted.
  rm -rf --one-file-system -- "$work"
}
trap cleanup EXIT
marker=$work/started
touch "$marker"
sleep 1 # mtime granularity: anything written into the template from now on is newer

./gpugen render examples/aws-h100/cluster.yaml -o "$work/render" >/dev/null 2>&1
dir=$work/render/ansible

echo "bench: $max hard-link copies of $template" >&2
mkdir -p "$work/hosts"
for ((i = 1; i <= max; i++)); do
  cp -al "$template" "$work/hosts/node-$i"
done

inventory() { # N: the first N hosts, in gpu_nodes and pool_h100 (YAML: ansible.cfg enables no ini)
  local f=$work/inventory-$1.yml
  {
    printf 'all:\n  children:\n    gpu_nodes:\n      hosts:\n'
    for ((i = 1; i <= $1; i++)); do
      echo "        node-$i: {ansible_connection: community.general.chroot, ansible_host: \"$work/hosts/node-$i\"}"
    done
    printf '    pool_h100:\n      children:\n        gpu_nodes:\n'
  } >"$f"
  echo "$f"
}

# play LOG INVENTORY: the two plays from the rendered folder, facts gathered afresh.
play() {
  rm -rf "$dir/.cache"
  (cd "$dir" && ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 \
    "$TIME" -f '%e %U %S' -o "$1.time" \
    ansible-playbook -i "$2" --skip-tags "$SKIP" 00-prerequisites.yml 04-network-tuning.yml \
    >"$1" 2>&1) || { echo "bench: ansible-playbook failed, see below" >&2; tail -n 40 "$1" >&2; exit 1; }
}

echo "bench: configuring $max hosts once (plays 00 and 04)" >&2
play "$work/configure.log" "$(inventory "$max")"

# The pull node: node-1 with the bundle inside, its own inventory, ansible from the host's /usr.
pull_root=$work/hosts/node-1
mkdir -p "$pull_root/opt/gpugen"
cp -a "$dir" "$pull_root/opt/gpugen/bundle"
printf 'all:\n  children:\n    gpu_nodes:\n      hosts:\n        localhost: {ansible_connection: local}\n    pool_h100:\n      children:\n        gpu_nodes:\n' \
  >"$pull_root/opt/gpugen/bundle/pull-inventory.yml"
pull() { # LOG
  rm -rf "$pull_root/opt/gpugen/bundle/.cache"
  "$TIME" -f '%e %U %S' -o "$1.time" unshare --mount --propagation private sh -c '
    mount --bind -o ro /usr "$1/usr" && mount -t proc proc "$1/proc" &&
    exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 ANSIBLE_NOCOLOR=1 \
      chroot "$1" sh -c "cd /opt/gpugen/bundle && exec ansible-playbook -c local -i pull-inventory.yml \
        --skip-tags $2 -e \"{\\\"gpugen_live_host\\\": false}\" 00-prerequisites.yml 04-network-tuning.yml"
  ' sh "$pull_root" "$SKIP" >"$1" 2>&1 || { echo "bench: pull run failed" >&2; tail -n 40 "$1" >&2; exit 1; }
}

# changed=0 for every host in the recap: the timed runs are idempotent.
idempotent() {
  if grep -E '^[^ ]+ +: ok=' "$1" | grep -qv ' changed=0 '; then
    echo "bench: not idempotent:" >&2
    grep -E '^[^ ]+ +: ok=' "$1" >&2
    exit 1
  fi
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# measure NAME CMD...: RUNS runs; sets wall (median s) and cpu (median user+sys s).
measure() {
  local name=$1
  shift
  local walls=() cpus=()
  for ((r = 1; r <= RUNS; r++)); do
    "$@" "$work/$name-$r.log"
    idempotent "$work/$name-$r.log"
    read -r e u s <"$work/$name-$r.log.time"
    walls+=("$e")
    cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')")
  done
  wall=$(printf '%s\n' "${walls[@]}" | median)
  cpu=$(printf '%s\n' "${cpus[@]}" | median)
}

push_n() { play "$1" "$work/inventory-$n.yml"; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(ansible-playbook --version | head -n 1);" \
  "forks $(awk -F' = ' '$1 == "forks" {print $2}' "$dir/ansible.cfg"); $RUNS runs each, medians"
printf '%-44s %9s %8s %14s\n' "plays 00 + 04, idempotent" "wall" "ratio" "CPU per host"
base=""
for n in $SIZES; do
  inventory "$n" >/dev/null
  measure "push-$n" push_n
  [ -n "$base" ] || base=$wall
  awk -v n="$n" -v w="$wall" -v b="$base" -v c="$cpu" 'BEGIN {
    printf "%-44s %8.2fs %7.2fx %13.2fs\n", "push: " n " chroot host" (n == 1 ? "" : "s") " (1 host = baseline)", w, w / b, c / n }'
done
measure pull pull
awk -v w="$wall" -v b="$base" -v c="$cpu" 'BEGIN {
  printf "%-44s %8.2fs %7.2fx %13.2fs\n", "pull: one node, -c local on itself", w, w / b, c }'

# The hard links were safe: nothing in the shared template changed.
changed=$(find "$template" -xdev -newer "$marker" -type f | head -n 5)
if [ -n "$changed" ]; then
  echo "bench: files of the shared template root changed (hard links written in place):" >&2
  echo "$changed" >&2
  exit 1
fi
echo "template root unchanged (no file newer than the start of the run)"
