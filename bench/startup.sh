#!/usr/bin/env bash
# Whole-process timings of gpugen against a hello-world JVM on the same machine, same run.
# pre-commit runs validate and render --check on every commit, so they must feel instant.
# Usage: bench/startup.sh [RUNS]   (default 15; prints medians in ms and ratios to hello world)
# Renders a 1-pool spec (aws-h100) and a 3-pool one (aws-mixed); prints the load average before
# and after, since on a shared machine wall times move with it.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-15}
./gpugen --version >/dev/null # builds the jar and the class-data-sharing archive if needed
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/Hello.java" <<'JAVA'
public class Hello {
  public static void main(String[] args) {
    System.out.println("hello");
  }
}
JAVA
javac -d "$tmp" "$tmp/Hello.java"
spec=examples/aws-h100/cluster.yaml
spec3=examples/aws-mixed/cluster.yaml
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# median_ms CMD...: runs CMD $runs times (after one warm-up), prints the median wall time in ms.
median_ms() {
  "$@" >/dev/null 2>&1 || true
  local samples=()
  for ((i = 0; i < runs; i++)); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    samples+=($(((t1 - t0) / 1000000)))
  done
  printf '%s\n' "${samples[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

hello=$(median_ms java -cp "$tmp" Hello)
row() { # name median
  awk -v n="$1" -v m="$2" -v h="$hello" 'BEGIN { printf "%-44s %6d ms  %5.2fx hello\n", n, m, m / h }'
}
echo "machine: $(nproc) cores, $(java -version 2>&1 | head -n 1); $runs runs each, medians"
echo "load average before: $load_before"
row "java Hello (baseline)" "$hello"
row "gpugen --version" "$(median_ms ./gpugen --version)"
row "gpugen validate $spec" "$(median_ms ./gpugen validate $spec)"
row "gpugen render $spec -o tmp" "$(median_ms ./gpugen render $spec -o "$tmp/out" --force)"
row "gpugen render $spec --check" "$(median_ms ./gpugen render $spec --check)"
row "gpugen render $spec3 -o tmp" "$(median_ms ./gpugen render $spec3 -o "$tmp/out3" --force)"
row "java -jar (no CDS archive) render --check" "$(median_ms java -jar target/gpugen.jar render $spec --check)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
