#!/usr/bin/env bash
# Benchmark of `gpugen-inventory --list` against a local EC2 stand-in, on 127.0.0.1 only.
#
#   bench/inventory.sh                 # N = 1000 and 16000, medians of RUNS runs
#   SIZES="16000" RUNS=7 bench/inventory.sh
#
# For each N it starts the project's EC2 stand-in (src/test/.../Ec2StandInMain: N nodes of
# demo/prod plus N/10 foreign, stopped and terminated ones) and times, in the same run:
#   - gpugen-inventory --list, cold (no cache file) and warm (cache hit): the rendered wrapper
#     script (templates/ansible/gpugen-inventory.ftl) exactly as Ansible runs it;
#   - ansible-inventory --list over that script (what Ansible itself pays);
#   - ansible-inventory --list with amazon.aws.aws_ec2 (Debian 12's ansible 7.7 / amazon.aws
#     5.5.1 / boto3 1.26) over the same endpoint and filters; that plugin has no endpoint option
#     and its boto3 ignores AWS_ENDPOINT_URL, so botocore is pointed at the stand-in with an
#     AWS_DATA_PATH copy of its EC2 endpoint rule set whose rules are one fixed endpoint;
#   - baselines: a hello-world `java` run, and curl fetching the same pages.
# It reports whole-process wall time, CPU time (user+sys) and peak RSS (GNU time), checks that
# gpugen and aws_ec2 return the same host set, and prints the ratios. On a shared machine the
# wall times move with the load (printed); CPU time moves much less.
#
# Needs: java, mvn, curl, jq, GNU time (/usr/bin/time), ansible + python3-boto3 (Debian) for the
# aws_ec2 comparison (skipped with a note when absent).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
RUNS=${RUNS:-5}
AWS_EC2_RUNS=${AWS_EC2_RUNS:-3}
SIZES=${SIZES:-"1000 16000"}
TIME=/usr/bin/time

for tool in java mvn curl jq "$TIME"; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }
done
have_aws_ec2=yes
if ! command -v ansible-inventory >/dev/null || ! /usr/bin/python3 -c 'import botocore' 2>/dev/null; then
  have_aws_ec2=no
fi

echo "bench: building (mvn -DskipTests package, then the launcher's class-data-sharing archive)..." >&2
# Maven copies resources but never deletes them: a template that became static (or the reverse)
# would otherwise still ship from an earlier build, as the launcher also knows.
rm -rf target/classes/templates
mvn -B -q -DskipTests package >&2
# The launcher records target/gpugen.jsa for the fresh jar; the rendered script uses it.
./gpugen --version >/dev/null
mvn -B -q dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/bench-classpath.txt >&2
jar="$root/target/gpugen.jar"
test_cp="$root/target/test-classes:$root/target/classes:$(cat target/bench-classpath.txt)"

work=$(mktemp -d /tmp/gpugen-bench.XXXXXX)
standin_pid=""
cleanup() {
  if [ -n "$standin_pid" ]; then
    kill "$standin_pid" 2>/dev/null || true
    wait "$standin_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# Never let the SDK or botocore probe the instance metadata service, and never use real
# credentials: the stand-in accepts this fake key id only.
export AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=secret AWS_EC2_METADATA_DISABLED=true
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_ENDPOINT_URL AWS_ENDPOINT_URL_EC2 || true
export HOME="$work/home" ANSIBLE_INVENTORY_UNPARSED_FAILED=true ANSIBLE_NOCOLOR=1
mkdir -p "$HOME"

# The rendered ansible/ folder: the wrapper script and its settings.
mkdir -p "$work/ansible" "$work/bin"
# The script as gpugen renders it (any spec renders the same script; its settings are replaced).
java -jar "$jar" render examples/aws-h100/cluster.yaml -o "$work/render" >/dev/null
cp -p "$work/render/ansible/gpugen-inventory" "$work/ansible/gpugen-inventory"
cp src/test/resources/inventory/small-fleet.gpugen-inventory.json "$work/ansible/gpugen-inventory.json"
script="$work/ansible/gpugen-inventory"
export GPUGEN_CACHE_DIR="$work/cache"

export GPUGEN_JAR="$jar"
launcher="java -jar target/gpugen.jar inventory (via GPUGEN_JAR)"
if [ -f target/gpugen.jsa ] && [ target/gpugen.jsa -nt target/gpugen.jar ]; then
  launcher="$launcher, with the class-data-sharing archive target/gpugen.jsa"
else
  launcher="$launcher, WITHOUT a class-data-sharing archive"
fi

# Baseline 1: the JVM alone.
cat > "$work/Hello.java" <<'EOF'
public class Hello {
  public static void main(String[] args) {
    System.out.println("hello");
  }
}
EOF
javac -d "$work" "$work/Hello.java"

# Baseline 2: the same pages with curl, signed with SigV4 as the stand-in demands.
cat > "$work/curl-pages.sh" <<'EOF'
#!/bin/bash
set -euo pipefail
endpoint=$1 page=$2 token=""
form='Action=DescribeInstances&Version=2016-11-15&Filter.1.Name=tag%3AManagedBy&Filter.1.Value.1=gpugen&Filter.2.Name=tag%3Agpugen%3Acluster&Filter.2.Value.1=demo&Filter.3.Name=tag%3Agpugen%3Aenvironment&Filter.3.Value.1=prod&Filter.4.Name=instance-state-name&Filter.4.Value.1=running&MaxResults=1000'
while :; do
  body=$form
  if [ -n "$token" ]; then body="$body&NextToken=$token"; fi
  curl -sS --fail-with-body -o "$page" \
    --aws-sigv4 'aws:amz:us-east-1:ec2' --user AKIDEXAMPLE:secret \
    --data "$body" "$endpoint/"
  token=$(sed -n 's:.*<nextToken>\(.*\)</nextToken>.*:\1:p' "$page")
  if [ -z "$token" ]; then break; fi
done
EOF
chmod 755 "$work/curl-pages.sh"

median() { sort -n | awk '{v[NR]=$1} END {if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

# measure LABEL RUNS PREP CMD...: runs PREP then CMD, RUNS times; prints median wall and RSS;
# leaves the last stdout in $work/out.json and sets $wall (s) and $rss (MiB).
measure() {
  local label=$1 runs=$2 prep=$3
  shift 3
  : > "$work/walls"
  : > "$work/rsss"
  : > "$work/cpus"
  for _ in $(seq "$runs"); do
    eval "$prep"
    if ! "$TIME" -f '%e %M %U %S' -o "$work/time" "$@" > "$work/out.json" 2> "$work/err"; then
      echo "bench: FAILED: $label" >&2
      cat "$work/err" >&2
      exit 1
    fi
    read -r w r u k < <(tail -1 "$work/time")
    echo "$w" >> "$work/walls"
    echo "$r" >> "$work/rsss"
    awk -v u="$u" -v k="$k" 'BEGIN { print u + k }' >> "$work/cpus"
  done
  wall=$(median < "$work/walls")
  rss=$(median < "$work/rsss" | awk '{printf "%d", $1 / 1024}')
  cpu=$(median < "$work/cpus")
  printf '  %-52s %7.2f s wall %7.2f s cpu %6d MiB\n' "$label" "$wall" "$cpu" "$rss"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "n/a" }'; }

echo "gpugen inventory benchmark: $(nproc) cores, $(java -version 2>&1 | head -1)"
echo "launcher: $launcher"
echo "medians of $RUNS runs (aws_ec2: $AWS_EC2_RUNS); wall = whole process, cpu = user+sys, RSS = peak"

for n in $SIZES; do
  java -cp "$test_cp" dev.gpugen.inventory.Ec2StandInMain "$n" $((n / 10)) 3600 > "$work/standin.out" 2>&1 &
  standin_pid=$!
  for _ in $(seq 100); do
    if [ -s "$work/standin.out" ]; then break; fi
    sleep 0.1
  done
  endpoint=$(head -1 "$work/standin.out")
  case "$endpoint" in
    http://127.0.0.1:*) ;;
    *) echo "bench: stand-in did not start: $endpoint" >&2; exit 1 ;;
  esac
  export GPUGEN_EC2_ENDPOINT="$endpoint"

  echo
  echo "N = $n instances (+ $((n / 10)) foreign/stopped), stand-in at $endpoint"
  echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  # Warm-up: the stand-in's JIT, and its memo of rendered pages (both clients ask the same
  # query; gpugen's per-zone partitions are warmed by one untimed run).
  "$work/curl-pages.sh" "$endpoint" "$work/page.xml"
  rm -rf "$GPUGEN_CACHE_DIR"
  "$script" --list > /dev/null

  measure "baseline: java Hello (JVM start)" "$RUNS" ":" java -cp "$work" Hello
  hello=$wall
  measure "baseline: curl, the same $(( (n + 999) / 1000 )) pages" "$RUNS" ":" \
    "$work/curl-pages.sh" "$endpoint" "$work/page.xml"
  curl_wall=$wall
  measure "gpugen-inventory --list, cold (no cache)" "$RUNS" 'rm -rf "$GPUGEN_CACHE_DIR"' \
    "$script" --list
  cold=$wall
  cold_cpu=$cpu
  cold_rss=$rss
  cp "$work/out.json" "$work/cold.json"
  jq -r '.gpu_nodes.hosts[]' "$work/out.json" | sort > "$work/gpugen.hosts"
  measure "gpugen-inventory --list, warm (cache hit)" "$RUNS" ":" "$script" --list
  warm=$wall
  cmp -s "$work/out.json" "$work/cold.json" \
    || { echo "bench: the cached output differs from the live one" >&2; exit 1; }
  measure "ansible-inventory -i gpugen-inventory --list, cold" "$RUNS" 'rm -rf "$GPUGEN_CACHE_DIR"' \
    ansible-inventory -i "$script" --list
  ansible_gpugen=$wall

  if [ "$have_aws_ec2" = yes ]; then
    data="$work/awsdata/ec2/2016-11-15"
    mkdir -p "$data"
    jq --arg url "$endpoint" \
      '.rules = [{"conditions": [], "endpoint": {"url": $url, "properties": {}, "headers": {}}, "type": "endpoint"}]' \
      /usr/lib/python3/dist-packages/botocore/data/ec2/2016-11-15/endpoint-rule-set-1.json \
      > "$data/endpoint-rule-set-1.json"
    cat > "$work/bench.aws_ec2.yml" <<'EOF'
plugin: amazon.aws.aws_ec2
regions:
  - us-east-1
filters:
  tag:ManagedBy: gpugen
  tag:gpugen:cluster: demo
  tag:gpugen:environment: prod
  instance-state-name: running
hostnames:
  - tag:Name
  - instance-id
compose:
  ansible_host: private_ip_address
keyed_groups:
  - key: tags['gpugen:pool']
    prefix: pool
  - key: placement.availability_zone
    prefix: az
  - key: instance_type
    prefix: type
groups:
  gpu_nodes: true
  spot: instance_lifecycle is defined and instance_lifecycle == 'spot'
EOF
    measure "ansible-inventory --list, amazon.aws.aws_ec2 5.5.1" "$AWS_EC2_RUNS" ":" \
      env AWS_DATA_PATH="$work/awsdata" ansible-inventory -i "$work/bench.aws_ec2.yml" --list
    aws_ec2=$wall
    aws_ec2_cpu=$cpu
    jq -r '._meta.hostvars | keys[]' "$work/out.json" | sort > "$work/aws_ec2.hosts"
    if cmp -s "$work/gpugen.hosts" "$work/aws_ec2.hosts"; then
      echo "  host sets: equal ($(wc -l < "$work/gpugen.hosts") hosts in both)"
    else
      echo "  host sets: DIFFERENT" >&2
      diff "$work/gpugen.hosts" "$work/aws_ec2.hosts" | head >&2
      exit 1
    fi
  else
    aws_ec2=0
    aws_ec2_cpu=0
    echo "  (aws_ec2 comparison skipped: needs Debian's ansible and python3-boto3)"
  fi

  echo "  load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "  ratios:"
  echo "    aws_ec2 / gpugen cold (wall):              $(ratio "$aws_ec2" "$cold")x  (goal at 16000: >= 20x)"
  echo "    aws_ec2 / gpugen cold (cpu):               $(ratio "$aws_ec2_cpu" "$cold_cpu")x"
  echo "    aws_ec2 / ansible-inventory over gpugen:   $(ratio "$aws_ec2" "$ansible_gpugen")x"
  echo "    gpugen cold / curl of the same pages:      $(ratio "$cold" "$curl_wall")x"
  echo "    gpugen cold / java Hello:                  $(ratio "$cold" "$hello")x"
  echo "    gpugen warm / java Hello:                  $(ratio "$warm" "$hello")x  (goal: warm < 0.3 s)"
  echo "    gpugen cold peak RSS:                      ${cold_rss} MiB"

  kill "$standin_pid" 2>/dev/null || true
  wait "$standin_pid" 2>/dev/null || true
  standin_pid=""
done
