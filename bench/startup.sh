#!/usr/bin/env bash
# Whole-process timings of gpugen against a hello-world JVM on the same machine, same run.
# pre-commit runs validate and render --check on every commit, so they must feel instant.
# Usage: bench/startup.sh [RUNS]   (default 15 rounds)
# Each round runs every command once, in the same order, so that load on the machine hits them
# alike (one warm-up round first, not counted). Per command: the median and [min-max] of the wall
# time and of the CPU time (user+sys of the process tree), and both medians as multiples of the
# hello-world JVM's. On a shared machine wall times move with the load (printed before and
# after); CPU times much less.
# Renders a 1-pool spec (aws-h100) and a 3-pool one (aws-mixed).
# GPUGEN_JAR=other.jar times that jar instead (with other.jsa beside it, as the launcher uses it),
# so the code before a change can be timed the same way right before or after it.
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

names=(
  "java Hello (baseline)"
  "gpugen --version"
  "gpugen validate $spec"
  "gpugen render $spec -o DIR"
  "gpugen render $spec --check"
  "gpugen render $spec3 -o DIR"
  "java -jar (no CDS archive) render --check"
)
run_case() {
  case $1 in
    0) java -Xshare:auto -cp "$tmp" Hello ;;
    1) ./gpugen --version ;;
    2) ./gpugen validate "$spec" ;;
    3) ./gpugen render "$spec" -o "$tmp/out" --force ;;
    4) ./gpugen render "$spec" --check ;;
    5) ./gpugen render "$spec3" -o "$tmp/out3" --force ;;
    6) java -jar "${GPUGEN_JAR:-target/gpugen.jar}" render "$spec" --check ;;
  esac
}
ms() { # ms CASE: "wall,cpu" of one run in ms
  local TIMEFORMAT='%3R %3U %3S' t
  t=$( { time run_case "$1" >/dev/null 2>&1; } 2>&1 || true)
  awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%d,%d", a[1] * 1000, (a[2] + a[3]) * 1000 }'
}
# stats: "median min max" of the numbers on stdin
stats() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)], a[1], a[NR]}'; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for i in "${!names[@]}"; do ms "$i" >/dev/null; done # warm-up round (page cache, archive)
declare -A wall cpu
for ((r = 0; r < runs; r++)); do
  for i in "${!names[@]}"; do
    m=$(ms "$i")
    wall[$i]+="${m%,*} "
    cpu[$i]+="${m#*,} "
  done
done
echo "machine: $(nproc) cores, $(java -version 2>&1 | head -n 1); $runs interleaved rounds, medians [min-max]"
echo "load average before: $load_before"
read -r hw _ <<<"$(tr ' ' '\n' <<<"${wall[0]}" | grep . | stats)"
read -r hc _ <<<"$(tr ' ' '\n' <<<"${cpu[0]}" | grep . | stats)"
printf '%-52s %20s %8s %20s %8s\n' command "wall ms" "x hello" "cpu ms" "x hello"
for i in "${!names[@]}"; do
  read -r w wmin wmax <<<"$(tr ' ' '\n' <<<"${wall[$i]}" | grep . | stats)"
  read -r c cmin cmax <<<"$(tr ' ' '\n' <<<"${cpu[$i]}" | grep . | stats)"
  awk -v n="${names[$i]}" -v w="$w" -v w0="$wmin" -v w1="$wmax" -v c="$c" -v c0="$cmin" \
    -v c1="$cmax" -v hw="$hw" -v hc="$hc" 'BEGIN {
      printf "%-52s %6d [%5d-%5d] %7.2fx %6d [%5d-%5d] %7.2fx\n", n, w, w0, w1, w / hw, c, c0, c1,
        (hc > 0 ? c / hc : 0)
    }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
