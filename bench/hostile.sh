#!/usr/bin/env bash
# Whole-process runs of gpugen on hostile input, each under a time bound (30 s) and a heap cap
# (256 MiB, JAVA_TOOL_OPTIONS=-Xmx256m): every broken or hostile spec of the test corpus, the
# generated giants (100,000-deep nesting, a 50 MB scalar), and the attacks of the README's
# "Hostile input" table (tampered manifest, FIFO spec, host variables that run code, .inf, keys
# with newlines and escapes, a security rule skipped without a reason). Each must exit with its
# documented code, print no stack trace, and leave a sibling folder unchanged. Prints each time and
# the slowest, beside a hello-world JVM in the same run.
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
if [ "$victim_before" != "$(cd "$tmp/victim" && find . -type f -exec sha256sum {} + | sort)" ]; then
  echo "FAIL: the folder beside the output changed" >&2
  exit 1
fi
[ ! -e PWNED ] || { echo "FAIL: a spec ran a command" >&2; exit 1; }
echo "slowest: $worst, $max ms (every run exited as documented, no stack trace, victim unchanged)"
