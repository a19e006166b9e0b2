#!/usr/bin/env bash
# Whole-process `gpugen validate` time for every broken or hostile spec of the test corpus, plus
# the generated giants (100,000-deep nesting, a 50 MB scalar): each must be refused (exit 1)
# quickly, never hang. Prints each time and the maximum, beside a hello-world JVM in the same run.
# Usage: bench/hostile.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./gpugen --version >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -c "print('x: ' + '[' * 100000 + ']' * 100000)" >"$tmp/deep-100k.yaml"
{ printf 'name: '; head -c 52428800 /dev/zero | tr '\0' a; } >"$tmp/scalar-50mb.yaml"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hi"); } }\n' >"$tmp/Hello.java"
javac -d "$tmp" "$tmp/Hello.java"

# timed CMD...: sets $t (wall ms) and $rc (exit code) in this shell.
timed() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null 2>&1 && rc=0 || rc=$?; t1=$(date +%s%N); t=$(((t1 - t0) / 1000000)); }
timed java -cp "$tmp" Hello
echo "java Hello (baseline): $t ms"
max=0
worst=
for spec in src/test/resources/hostile/*.yaml "$tmp/deep-100k.yaml" "$tmp/scalar-50mb.yaml"; do
  timed ./gpugen validate "$spec"
  if [ "$rc" != 1 ]; then
    echo "FAIL: $spec exited $rc, want 1" >&2
    exit 1
  fi
  printf '%6d ms  %s\n' "$t" "$(basename "$spec")"
  if [ "$t" -gt "$max" ]; then max=$t; worst=$(basename "$spec"); fi
done
echo "slowest: $worst, $max ms (every spec exited 1)"
