#!/usr/bin/env bash
# Whole-process runs of gpugen on hostile input, each under a time bound (30 s, `timeout 30`) and a
# heap cap (256 MiB, JAVA_TOOL_OPTIONS=-Xmx256m): every broken or hostile spec of the test corpus,
# the generated giants (100,000-deep nesting, a 50 MB scalar), and every attack of the README's
# "Hostile input" table: tampered manifests, links in and on the way to the folder, a 3 GiB
# manifest, a user's file where the render puts its own, a file where a folder must go, two
# renders racing into one folder, host variables that run code, .inf, keys with newlines and
# escapes, security rules skipped with and without a reason, unknown rule ids, the internet in
# pieces, hostile drift facts (escapes, 3 GiB, a pipe, a line feed in the name), pull mode's bundle
# digest (a planted fact cache, an empty folder, a line feed in a name included), report and IAM
# scoping, localhost hosts and loopback in every form, a GPU host named like the control plane,
# role variables as host variables, secrets anywhere in the spec, http mirrors serving keys,
# charts or images, huge pages beyond memory, networks EC2 refuses, keyed groups that
# name gpugen's, endpoints with passwords, linked, FIFO and huge template overrides, and names with
# shell and terminal syntax in the commands printed for pasting. Each must exit with its documented code, print no stack trace, never print what lies
# outside the folder, and leave a sibling folder unchanged. Prints each time and the slowest,
# beside a hello-world JVM in the same run.
# Usage: bench/hostile.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./gpugen --version >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export JAVA_TOOL_OPTIONS=-Xmx256m
python3 -c "print('x: ' + '[' * 100000 + ']' * 100000)" >"$tmp/deep-100k.yaml"
{ printf 'name: '; head -c 52428800 /dev/zero | tr '\0' a; } >"$tmp/scalar-50mb.yaml"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hi"); } }\n' >"$tmp/Hello.java"
javac -d "$tmp" "$tmp/Hello.java"

# Attacks generated from the examples.
ex=examples/aws-h100/cluster.yaml
st=examples/static-baremetal/cluster.yaml
sed 's|vars: {ansible_user: ops}|vars: {ansible_connection: local, ansible_python_interpreter: "/usr/bin/touch PWNED"}|' $st >"$tmp/host-vars-run-code.yaml"
sed 's|vars: {ansible_user: ops}|vars: {ansible_become_password: hunter2, aws_secret_access_key: x}|' $st >"$tmp/host-vars-secrets.yaml"
sed 's|minBusBandwidthGBps: 350|minBusBandwidthGBps: .inf|' $ex >"$tmp/number-inf.yaml"
sed 's|minBusBandwidthGBps: 350|minBusBandwidthGBps: .nan|' $ex >"$tmp/number-nan.yaml"
sed 's|workload-type: training|"a\\nb": training|' $ex >"$tmp/key-newline.yaml"
sed 's|workload-type: training|"x\\e[2J\\u202e": training|' $ex >"$tmp/key-escape.yaml"
sed "s|workload-type: training|$(printf '\033')[2J: training|" $ex >"$tmp/raw-escape.yaml"
sed 's|^software:|lint: {skip: [sec-imdsv1-enabled]}\nsoftware:|' src/test/resources/diagnostics/sec-imdsv1-enabled/fires.yaml >"$tmp/skip-security-rule.yaml"
mkfifo "$tmp/fifo.yaml"

# A render folder with a tampered manifest, beside a victim folder hashed before and after.
mkdir -p "$tmp/victim"
echo 'AWS_SECRET=precious' >"$tmp/victim/precious.txt"
./gpugen render $ex -o "$tmp/out" >/dev/null
sha=$(sha256sum "$tmp/victim/precious.txt" | cut -d' ' -f1)
sed -i "s|\"files\": {|\"files\": {\n    \"../victim/precious.txt\": \"$sha\",\n    \"/proc/self/environ\": \"$sha\",|" "$tmp/out/.gpugen-manifest.json"
victim_before=$(cd "$tmp/victim" && find . -type f -exec sha256sum {} + | sort)

# timed WANT CMD...: runs CMD under the bounds, sets $t (wall ms); fails unless it exits WANT
# without a stack trace.
timed() {
  local want=$1 t0 t1 rc
  shift
  t0=$(date +%s%N)
  timeout 30 "$@" >"$tmp/stdout" 2>"$tmp/stderr" && rc=0 || rc=$?
  t1=$(date +%s%N)
  t=$(((t1 - t0) / 1000000))
  if [ "$rc" != "$want" ]; then
    echo "FAIL: $* exited $rc, want $want" >&2
    cat "$tmp/stderr" >&2
    exit 1
  fi
  if grep -qE $'^\tat |Exception|OutOfMemoryError' "$tmp/stderr" "$tmp/stdout"; then
    echo "FAIL: $* printed a stack trace" >&2
    exit 1
  fi
  if grep -q 'AWS_SECRET=precious' "$tmp/stdout" "$tmp/stderr"; then
    echo "FAIL: $* printed what lies outside the folder" >&2
    exit 1
  fi
}
timed 0 java -cp "$tmp" Hello
echo "java Hello (baseline): $t ms"
max=0
worst=
run() {
  local name=$1
  shift
  timed "$@"
  printf '%6d ms  exit %s  %s\n' "$t" "$1" "$name"
  if [ "$t" -gt "$max" ]; then max=$t; worst=$name; fi
}
for spec in src/test/resources/hostile/*.yaml "$tmp/deep-100k.yaml" "$tmp/scalar-50mb.yaml" \
  "$tmp"/host-vars-*.yaml "$tmp"/number-*.yaml "$tmp"/key-*.yaml "$tmp/raw-escape.yaml" \
  "$tmp/skip-security-rule.yaml"; do
  run "$(basename "$spec")" 1 ./gpugen validate "$spec"
done
run "fifo.yaml" 3 ./gpugen validate "$tmp/fifo.yaml"
run "validate ok missing bad" 3 ./gpugen validate $ex "$tmp/missing.yaml" "$tmp/number-inf.yaml"
run "--skip-rule nope" 2 ./gpugen validate --skip-rule nope $ex
run "tampered manifest: render" 1 ./gpugen render $ex -o "$tmp/out"
run "tampered manifest: render --force" 1 ./gpugen render $ex -o "$tmp/out" --force
run "tampered manifest: render --check" 1 ./gpugen render $ex -o "$tmp/out" --check

# check NAME CMD...: a property of a render or an output that is not an exit code.
check() {
  local name=$1
  shift
  if "$@"; then
    printf '    ok            %s\n' "$name"
  else
    echo "FAIL: $name" >&2
    exit 1
  fi
}
# No raw ESC, carriage return or U+202E (its UTF-8 bytes) in what the run printed.
no_raw_controls() {
  ! LC_ALL=C grep -q -e $'\033' -e $'\r' -e $'\xe2\x80\xae' "$tmp/stdout" "$tmp/stderr"
}

# The writer: links, sizes, a user's file, a file where a folder goes, two renders at once.
./gpugen render $ex -o "$tmp/out-link" >/dev/null 2>&1
rm "$tmp/out-link/ansible/site.yml"
ln -s "$tmp/victim/precious.txt" "$tmp/out-link/ansible/site.yml"
run "a link planted in the folder" 1 ./gpugen render $ex -o "$tmp/out-link"
check "the link's target unchanged" grep -qx 'AWS_SECRET=precious' "$tmp/victim/precious.txt"
ln -s "$tmp/victim" "$tmp/linkdir"
run "-o linkdir/sub, linkdir a link" 1 ./gpugen render $ex -o "$tmp/linkdir/sub"
check "nothing written through the link" test ! -e "$tmp/victim/sub"
./gpugen render $ex -o "$tmp/out-big" >/dev/null 2>&1
truncate -s 3G "$tmp/out-big/.gpugen-manifest.json"
run "a 3 GiB manifest" 3 ./gpugen render $ex -o "$tmp/out-big"
check "one line: 3.0 GiB, more than the 16 MiB" grep -q '3.0 GiB, more than the 16 MiB' "$tmp/stderr"
# The same spec file, edited to pull mode: the folder is its render (its manifest names it).
cp $ex "$tmp/pull-mode.yaml"
./gpugen render "$tmp/pull-mode.yaml" -o "$tmp/out-user" >/dev/null 2>&1
echo '# my own pull.tf' >"$tmp/out-user/terraform/pull.tf"
sed -i 's|^ansible:$|ansible:\n  mode: pull|' "$tmp/pull-mode.yaml"
run "your file where the render puts its own" 1 ./gpugen render "$tmp/pull-mode.yaml" -o "$tmp/out-user"
check "your file kept" grep -qx '# my own pull.tf' "$tmp/out-user/terraform/pull.tf"
./gpugen render src/test/resources/golden/aws-gitops/spec.yaml -o "$tmp/out-argo" >/dev/null 2>&1
rm -r "$tmp/out-argo/argocd"
echo 'not a folder' >"$tmp/out-argo/argocd"
argo_before=$(cd "$tmp/out-argo" && find . -type f -exec sha256sum {} + | sort)
run "a file where argocd/ must go" 1 ./gpugen render src/test/resources/golden/aws-gitops/spec.yaml -o "$tmp/out-argo"
check "the old tree exactly" test "$argo_before" = "$(cd "$tmp/out-argo" && find . -type f -exec sha256sum {} + | sort)"
mkdir "$tmp/race"
t0=$(date +%s%N)
timeout 60 ./gpugen render $ex -o "$tmp/race/out" --force >"$tmp/race-a" 2>&1 & a=$!
timeout 60 ./gpugen render $st -o "$tmp/race/out" --force >"$tmp/race-b" 2>&1 & b=$!
timeout 60 ./gpugen render $ex -o "$tmp/race/sibling" >"$tmp/race-c" 2>&1 & c=$!
rc=0
wait $a || rc=1
wait $b || rc=1
wait $c || rc=1
printf '%6d ms  exit %s  %s\n' $((($(date +%s%N) - t0) / 1000000)) $rc "three renders racing into one parent"
check "all three succeeded" test $rc = 0
check "no staging or lock left" test "$(ls -A "$tmp/race" | tr '\n' ' ')" = "out sibling "

# The spec.
sed 's|sshIngressCidrs: \[203.0.113.0/24\]|sshIngressCidrs: [0.0.0.0/1, 128.0.0.0/1]|' \
  src/test/resources/diagnostics/sec-ssh-open-to-world/clean.yaml >"$tmp/internet-in-pieces.yaml"
run "the internet in pieces" 1 ./gpugen validate --fail-on warning "$tmp/internet-in-pieces.yaml"
check "judged by the union" grep -q 'together open SSH to the whole internet' "$tmp/stdout"
run "--skip-rule spec-unknown-key" 2 ./gpugen validate --skip-rule spec-unknown-key $ex
sed 's|^software:|lint:\n  skip: [sec-imdsv1-enabled]\n  reasons: {sec-imdsv1-enabled: "legacy AMI reads IMDSv1 until its agent is replaced"}\nsoftware:|' \
  src/test/resources/diagnostics/sec-imdsv1-enabled/fires.yaml >"$tmp/skip-with-reason.yaml"
run "a security rule skipped with a reason (SARIF)" 0 ./gpugen validate --format sarif "$tmp/skip-with-reason.yaml"
check "a suppression with its justification" grep -q '"justification" : "legacy AMI reads IMDSv1' "$tmp/stdout"
run "the same with --no-spec-suppressions" 1 ./gpugen validate --no-spec-suppressions "$tmp/skip-with-reason.yaml"

# Drift: hostile facts, bounded reads.
mkdir "$tmp/facts" "$tmp/facts-big" "$tmp/facts-fifo"
cat >"$tmp/facts/node$(printf '\033')[2J.json" <<'EOF'
{"ansible_facts": {"ansible_local": {
  "gpugen": {"gpugen_spec_sha256": "x", "cluster": "h100-training", "environment": "prod",
             "pool": "h100", "driver": "1\u001b[2J\ndrift h100-training/prod: in sync\u202e",
             "cuda": "12.8", "container_toolkit": "1.17.8", "nccl_env_sha256": "n"},
  "gpugen_nccl": {"conf": "/etc/nccl.conf", "nccl_env_sha256": "n"}}}}
EOF
run "drift: escapes and newlines in facts" 1 ./gpugen drift $ex --no-cloud --facts "$tmp/facts"
check "printed escaped, no forged line" no_raw_controls
check "the hostile driver is shown, escaped" grep -qF 'found 1\x1b[2J\ndrift h100-training/prod: in sync\u202e' "$tmp/stdout"
check "no forged in-sync line" bash -c "! grep -q '^drift h100-training/prod: in sync' '$tmp/stdout'"
truncate -s 3G "$tmp/facts-big/node.json"
run "drift: a 3 GiB facts file" 3 ./gpugen drift $ex --no-cloud --facts "$tmp/facts-big"
mkfifo "$tmp/facts-fifo/node.json"
run "drift: a pipe as facts file" 3 ./gpugen drift $ex --no-cloud --facts "$tmp/facts-fifo"
mkdir -p "$tmp/facts-lf"
cp "$tmp/facts/"*.json "$tmp/facts-lf/"$'evil\n'
run "drift: a facts file named with a line feed" 3 ./gpugen drift $ex --no-cloud --facts "$tmp/facts-lf"

# Pull mode: the bundle digest in the user data is what a node computes over the bundle (the
# user data's own command, run here), and a changed file changes it; IAM as rendered.
./gpugen render src/test/resources/golden/aws-pull/spec.yaml -o "$tmp/out-pull" >/dev/null 2>&1
sed -n '/^bundle_listing() ($/,/^)$/p' "$tmp/out-pull/terraform/user-data-h100.sh" >"$tmp/bundle-listing.sh"
check "the user data has its listing function" test -s "$tmp/bundle-listing.sh"
# shellcheck source=/dev/null
. "$tmp/bundle-listing.sh"
digest() {
  local listing
  listing=$(state=$tmp bundle=$1 bundle_listing 2>/dev/null && echo .) || { echo refused; return; }
  printf '%s' "${listing%.}" | sha256sum | cut -d' ' -f1
}
baked=$(sed -n "s/^bundle_sha256='\?\([0-9a-f]\{64\}\)'\?$/\1/p" "$tmp/out-pull/terraform/user-data-h100.sh")
check "the user data's bundle digest is the bundle's" test "$baked" = "$(digest "$tmp/out-pull/ansible")"
check "the node's check is in the user data" grep -q 'the bundle is not the one this node was launched with' "$tmp/out-pull/terraform/user-data-h100.sh"
echo 'gpugen_extra: x' >>"$tmp/out-pull/ansible/group_vars/all.yml"
check "a changed bundle file changes the digest" test "$baked" != "$(digest "$tmp/out-pull/ansible")"
./gpugen render src/test/resources/golden/aws-pull/spec.yaml -o "$tmp/out-pull2" >/dev/null 2>&1
mkdir -p "$tmp/out-pull2/ansible/.cache/facts"
echo '{"prerequisites_sysctl": {"kernel.modprobe": "/tmp/x"}}' >"$tmp/out-pull2/ansible/.cache/facts/localhost"
check "a planted fact cache changes the digest" test "$baked" != "$(digest "$tmp/out-pull2/ansible")"
./gpugen render src/test/resources/golden/aws-pull/spec.yaml -o "$tmp/out-pull3" >/dev/null 2>&1
check "the fresh render's digest is the baked one" test "$baked" = "$(digest "$tmp/out-pull3/ansible")"
mkdir -p "$tmp/out-pull3/ansible/group_vars/all"
check "an empty folder changes the digest" test "$baked" != "$(digest "$tmp/out-pull3/ansible")"
rmdir "$tmp/out-pull3/ansible/group_vars/all"
mkdir -p "$tmp/out-pull3/ansible/host_vars/localhost"
printf 'prerequisites_sysctl: {kernel.core_pattern: "|/tmp/evil %%p"}\n' >"$tmp/out-pull3/ansible/host_vars/localhost/"$'x\nA.yml'
check "a name with a line feed refuses the bundle" test refused = "$(digest "$tmp/out-pull3/ansible")"
check "the node caches facts in memory" grep -q 'ANSIBLE_CACHE_PLUGIN=memory ansible-playbook' "$tmp/out-pull/terraform/user-data-h100.sh"
check "Terraform uploads the rendered list only" grep -q 'toset(var.pull_bundle_files)' "$tmp/out-pull/terraform/pull.tf"
check "bundles: an explicit Deny of writes" grep -q 'sid    = "BundlesAreReadOnly"' "$tmp/out-pull/terraform/pull.tf"
check "reports: only the node's own" grep -qF '/${var.pull_reports_prefix}/$${aws:userid}.json' "$tmp/out-pull/terraform/pull.tf"
check "SSM: no managed policy, no GetParameter" bash -c "! grep -q 'iam::aws:policy/\\|\"ssm:GetParameter' '$tmp/out-pull/terraform/iam.tf'"
check "the report records the resolved commit" grep -q 'git_commit=$(git -C "$state/checkout" rev-parse HEAD)' "$tmp/out-pull/terraform/user-data-h100.sh"
sed 's|    source: s3|    source: git\n    gitUrl: https://git.example.com/org/cluster-config.git\n    gitRef: main\n    gitPath: clusters/fleet/ansible|' \
  src/test/resources/golden/aws-pull/spec.yaml >"$tmp/pull-branch.yaml"
run "pull mode with gitRef: main" 1 ./gpugen validate --fail-on warning "$tmp/pull-branch.yaml"
check "pull-unpinned-ref at the value" grep -q 'warning\[pull-unpinned-ref\]' "$tmp/stdout"

# Names, hosts, settings, templates and networks.
run "init --name with a line feed" 2 ./gpugen init --name "$(printf 'a\nb')" -o -
sed 's|{name: cp-01, address: 10.40.0.5}|{name: localhost, address: 127.0.0.1}|' $st >"$tmp/host-localhost.yaml"
run "a host called localhost at 127.0.0.1" 1 ./gpugen validate "$tmp/host-localhost.yaml"
sed 's|vars: {ansible_user: ops}|vars: {nvidia_driver_version: "1.0", nccl_network_efa_installer_url: "http://x/y"}|' $st >"$tmp/host-vars-role.yaml"
run "host variables of gpugen's roles" 1 ./gpugen validate "$tmp/host-vars-role.yaml"
check "the spec key to set instead" grep -q 'set software.driver instead' "$tmp/stdout"
sed 's|{name: cp-01, address: 10.40.0.5}|{name: cp-01, address: 10.40.0.5, vars: {note: AKIAIOSFODNN7EXAMPLE}}|' $st >"$tmp/secret-cp.yaml"
run "an access key in a control-plane host variable" 1 ./gpugen validate "$tmp/secret-cp.yaml"
sed 's|^kernel:|mirrors: {cuda: http://mirror.example.com/cuda}\nkernel:|' $ex >"$tmp/mirror-http.yaml"
run "the CUDA keyring from a plain http mirror" 1 ./gpugen validate "$tmp/mirror-http.yaml"
sed 's|^kernel:|mirrors: {helm: {gpuOperator: http://charts.example.com/nvidia}, registries: {nvcr.io: "http://registry.example.com:5000"}}\nkernel:|' $ex >"$tmp/mirror-charts-http.yaml"
run "charts and images from plain http mirrors" 1 ./gpugen validate "$tmp/mirror-charts-http.yaml"
check "sec-unverified-mirror-over-http" grep -q 'error\[sec-unverified-mirror-over-http\]' "$tmp/stdout"
for addr in 0x7f000001 '"::ffff:7f00:1"' '"0:0:0:0:0:ffff:7f00:1"' localhost4 localhost6 ip6-localhost ip6-loopback; do
  sed "s|{name: cp-01, address: 10.40.0.5}|{name: cp-01, address: $addr}|" $st >"$tmp/host-loopback.yaml"
  run "a host addressed $addr" 1 ./gpugen validate "$tmp/host-loopback.yaml"
done
sed 's|{name: infer-01,|{name: cp-01,|' $st >"$tmp/host-named-cp.yaml"
run "a GPU host named like the control-plane host" 1 ./gpugen validate "$tmp/host-named-cp.yaml"
check "spec-pool-shape names both" grep -q 'host name cp-01 is already used by l4.hosts\[0\]' "$tmp/stdout"
sed 's|instanceType: p5.48xlarge|instanceType: p5.48xlarge\n    tuning: {hugepages: 10000000}|' $ex >"$tmp/hugepages.yaml"
run "tuning.hugepages beyond the instance's memory" 1 ./gpugen validate "$tmp/hugepages.yaml"
for cidr in 10.0.0.0/8:net-vpc-cidr-size 127.0.0.0/16:net-cidr-special-range \
  224.0.0.0/16:net-cidr-special-range 169.254.0.0/16:net-cidr-special-range \
  0.0.0.0/16:net-cidr-special-range 10.42.0.0/28:net-subnet-too-small; do
  block=${cidr%%:*} rule=${cidr#*:} bits=${cidr#*/}
  bits=${bits%%:*}
  sed "s|vpcCidr: 10.42.0.0/16 |vpcCidr: $block |; s|subnetCidr: 10.42.0.0/20|subnetCidr: ${block%/*}/$((bits > 20 ? bits : 20))|" \
    $ex >"$tmp/vpc.yaml"
  run "vpcCidr $block" 1 ./gpugen validate "$tmp/vpc.yaml"
  check "$rule" grep -q "error\[$rule\]" "$tmp/stdout"
done
run "keyedGroups prefix kube" 1 env GPUGEN_KEYED_GROUPS='[{"tag": "team", "prefix": "kube"}]' \
  ./gpugen inventory --list --config "$tmp/out/ansible/gpugen-inventory.json"
run "GPUGEN_EC2_ENDPOINT with a password" 1 env GPUGEN_EC2_ENDPOINT='http://u:hunter2@my_host:1/' \
  ./gpugen inventory --list --config "$tmp/out/ansible/gpugen-inventory.json"
check "the password is not printed" bash -c "! grep -q hunter2 '$tmp/stderr'"
mkdir -p "$tmp/tpl-link/ansible" "$tmp/tpl-fifo/ansible" "$tmp/tpl-big/ansible"
ln -s "$tmp/victim/precious.txt" "$tmp/tpl-link/ansible/02-container-runtime.yml"
run "--templates: a linked override" 3 ./gpugen render $ex -o "$tmp/out-tpl" --templates "$tmp/tpl-link"
mkfifo "$tmp/tpl-fifo/ansible/02-container-runtime.yml"
run "--templates: a FIFO override" 3 ./gpugen render $ex -o "$tmp/out-tpl" --templates "$tmp/tpl-fifo"
truncate -s 3G "$tmp/tpl-big/ansible/02-container-runtime.yml"
run "--templates: a 3 GiB override" 3 ./gpugen render $ex -o "$tmp/out-tpl" --templates "$tmp/tpl-big"
check "nothing rendered" test ! -e "$tmp/out-tpl"
hostile="o \$(touch PWNED) \`touch PWNED\` $(printf '\033')[2J"
run "-o with \$(...), backticks and ESC" 0 ./gpugen render $ex -o "$tmp/$hostile"
check "printed escaped" no_raw_controls
check "the next steps quote it for the shell" grep -qF "terraform '-chdir=$tmp/o \$(touch PWNED)" "$tmp/stdout"

if [ "$victim_before" != "$(cd "$tmp/victim" && find . -type f -exec sha256sum {} + | sort)" ]; then
  echo "FAIL: the folder beside the output changed" >&2
  exit 1
fi
[ ! -e PWNED ] || { echo "FAIL: a spec ran a command" >&2; exit 1; }
echo "slowest: $worst, $max ms (bounds: 30 s and a 256 MiB heap each; every run exited as documented, no stack trace, victim unchanged)"
