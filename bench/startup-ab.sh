#!/usr/bin/env bash
# A/B start-up comparison of two gpugen jars, interleaved in the same run with a hello-world JVM
# (the floor), so that machine load hits all three alike. Each jar runs through the launcher
# (GPUGEN_JAR) with its own class-data-sharing archive, recorded like the launcher does.
# Usage: bench/startup-ab.sh A.jar B.jar [C.jar] [RUNS]   (default 21 rounds; medians, x hello)
#        SPEC=examples/aws-mixed/cluster.yaml bench/startup-ab.sh ...   (another spec)
set -euo pipefail
cd "$(dirname "$0")/.."
names=(A B)
jars=("$(realpath "$1")" "$(realpath "$2")")
shift 2
if [ $# -gt 0 ] && [[ $1 == *.jar ]]; then
  names+=(C)
  jars+=("$(realpath "$1")")
  shift
fi
runs=${1:-21}
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
spec=${SPEC:-examples/aws-h100/cluster.yaml}
jvm="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"

for jar in "${jars[@]}"; do # the launcher's training run: one real render
  # shellcheck disable=SC2086
  rm -f "${jar%.jar}.jsa"
  # shellcheck disable=SC2086
  java -XX:ArchiveClassesAtExit="${jar%.jar}.jsa" $jvm -jar "$jar" render "$spec" \
    -o "$tmp/train" >/dev/null 2>&1
  rm -rf "$tmp/train"
done

ms() { # ms CMD...: "wall,cpu" of one run in ms (cpu = user + sys of the process tree; on a
  # loaded machine wall time is mostly waiting for a core, CPU time much less so)
  local TIMEFORMAT='%3R %3U %3S' t
  t=$( { time "$@" >/dev/null 2>&1; } 2>&1 || true)
  awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%d,%d", a[1] * 1000, (a[2] + a[3]) * 1000 }'
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A samples
cases=(hello)
for n in "${names[@]}"; do cases+=("$n validate"); done
for n in "${names[@]}"; do cases+=("$n render"); done
run_case() {
  if [ "$1" = hello ]; then
    ms java -Xshare:auto -cp "$tmp" Hello
    return
  fi
  local i jar
  for i in "${!names[@]}"; do [ "${names[$i]}" = "${1%% *}" ] && jar=${jars[$i]}; done
  case $1 in
    *validate) GPUGEN_JAR=$jar ms ./gpugen validate "$spec" ;;
    *render) GPUGEN_JAR=$jar ms ./gpugen render "$spec" -o "$tmp/out" --force ;;
  esac
}
for c in "${cases[@]}"; do run_case "$c" >/dev/null; done # warm-up
for ((i = 0; i < runs; i++)); do
  for c in "${cases[@]}"; do samples[$c]+="$(run_case "$c") "; done
done
for i in "${!names[@]}"; do echo "${names[$i]}=${jars[$i]}"; done
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -n 1)"
echo "$runs interleaved rounds, medians"
col() { echo "${samples[$1]}" | tr ' ' '\n' | grep . | cut -d, -f"$2" | median; }
hw=$(col hello 1)
hc=$(col hello 2)
printf '%-12s %16s %16s\n' "" "wall" "cpu (user+sys)"
for c in "${cases[@]}"; do
  awk -v n="$c" -v w="$(col "$c" 1)" -v c="$(col "$c" 2)" -v hw="$hw" -v hc="$hc" \
    'BEGIN { printf "%-12s %5d ms %5.2fx  %5d ms %5.2fx\n", n, w, w / hw, c, c / hc }'
done
