#!/usr/bin/env bash
# Benchmark of `gpugen-inventory --list` against amazon.aws.aws_ec2, both on a local EC2 stand-in
# (127.0.0.1 only), measured side by side in one run.
#
#   bench/inventory.sh                          # N = 1000 and 16000: 5 rounds, aws_ec2 in 3
#   SIZES=16000 RUNS=7 AWS_EC2_RUNS=5 bench/inventory.sh
#
# Takes about 4 minutes on an idle 2-core machine (aws_ec2 needs about 25 s per listing of
# 16,000 instances; everything else is seconds), and prints one table per N.
#
# For each N it starts the project's EC2 stand-in (src/test/.../Ec2StandInMain: N nodes of
# demo/prod plus N/10 foreign, stopped and terminated ones) and runs RUNS interleaved rounds; each
# round runs every case once, in this order, so that load on the machine hits them alike:
#   - a hello-world `java` (the JVM's own start) and curl fetching the same pages (the transfer);
#   - gpugen-inventory --list, cold (no cache file: EC2 asked) and warm (cache hit): the rendered
#     wrapper script (templates/ansible/gpugen-inventory) exactly as Ansible runs it;
#   - in the first AWS_EC2_RUNS rounds: ansible-inventory --list with amazon.aws.aws_ec2 (Debian
#     12's ansible 7.7 / amazon.aws 5.5.1 / boto3 1.26) over the same endpoint and filters, and
#     ansible-inventory --list over the gpugen script (what Ansible itself pays). The plugin has no
#     endpoint option and its boto3 ignores AWS_ENDPOINT_URL, so botocore is pointed at the
#     stand-in with an AWS_DATA_PATH copy of its EC2 endpoint rule set whose rules are one fixed
#     endpoint.
# Each row shows the median and the range [min-max] of whole-process wall time, CPU time
# (user+sys, GNU time) and peak RSS. The ratios are of medians, with the worst and best pairing of
# the two ranges beside them. It checks that gpugen and aws_ec2 return the same host set and that
# the cached output is the live one, byte for byte.
#
# Needs: java (Maven comes from ./mvnw), curl, jq, GNU time (/usr/bin/time), and for the aws_ec2 rows Debian's ansible
# and python3-boto3 (apt-get install -y ansible python3-boto3; skipped with a note when absent).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
RUNS=${RUNS:-5}
AWS_EC2_RUNS=${AWS_EC2_RUNS:-3}
SIZES=${SIZES:-"1000 16000"}
TIME=/usr/bin/time
if [ "$AWS_EC2_RUNS" -gt "$RUNS" ]; then
  RUNS=$AWS_EC2_RUNS
fi

mvn=./mvnw
for tool in java curl jq "$TIME"; do
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
"$mvn" -B -q -DskipTests package >&2
# The launcher records target/gpugen.jsa for the fresh jar; the rendered script uses it.
./gpugen --version >/dev/null
"$mvn" -B -q dependency:build-classpath -Dmdep.includeScope=test \
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
mkdir -p "$work/ansible"
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

# Baseline: the JVM alone.
cat > "$work/Hello.java" <<'EOF'
public class Hello {
  public static void main(String[] args) {
    System.out.println("hello");
  }
}
EOF
javac -d "$work" "$work/Hello.java"

# Baseline: the same pages with curl, signed with SigV4 as the stand-in demands.
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

# once CASE PREP CMD...: runs PREP, then CMD under GNU time; appends "wall cpu rss_kib" to
# $work/CASE.samples and leaves stdout in $work/CASE.out.
once() {
  local name=$1 prep=$2
  shift 2
  eval "$prep"
  if ! "$TIME" -f '%e %U %S %M' -o "$work/time" "$@" > "$work/$name.out" 2> "$work/err"; then
    echo "bench: FAILED: $name" >&2
    cat "$work/err" >&2
    exit 1
  fi
  awk '{ printf "%s %.2f %d\n", $1, $2 + $3, $4 }' "$work/time" >> "$work/$name.samples"
}

# stat CASE COLUMN: "median min max" of one column (1 wall, 2 cpu, 3 RSS KiB) of CASE's samples.
stat() {
  cut -d' ' -f"$2" "$work/$1.samples" | sort -g |
    awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
          print m, v[1], v[NR] }'
}

# row LABEL CASE: one table row, "median [min-max]" of wall, CPU and peak RSS, and the sample count.
row() {
  local w c r
  if [ ! -s "$work/$2.samples" ]; then
    return
  fi
  w=$(stat "$2" 1)
  c=$(stat "$2" 2)
  r=$(stat "$2" 3)
  awk -v l="$1" -v w="$w" -v c="$c" -v r="$r" -v n="$(wc -l < "$work/$2.samples")" 'BEGIN {
    split(w, W, " "); split(c, C, " "); split(r, R, " ");
    printf "| %-46s | %6.2f [%.2f-%.2f] | %6.2f [%.2f-%.2f] | %4d [%d-%d] | %d |\n",
      l, W[1], W[2], W[3], C[1], C[2], C[3], R[1] / 1024, R[2] / 1024, R[3] / 1024, n }'
}

# ratio A B COLUMN: median(A)/median(B), and the worst (min A / max B) and best (max A / min B).
ratio() {
  awk -v a="$(stat "$1" "$3")" -v b="$(stat "$2" "$3")" 'BEGIN {
    split(a, A, " "); split(b, B, " ");
    if (B[1] > 0 && B[3] > 0 && B[2] > 0)
      printf "%.1fx (range %.1fx-%.1fx)", A[1] / B[1], A[2] / B[3], A[3] / B[2];
    else print "n/a" }'
}

echo "gpugen inventory benchmark: $(nproc) cores, $(java -version 2>&1 | head -1)"
echo "launcher: $launcher"
echo "$RUNS interleaved rounds (aws_ec2 and ansible-inventory in the first $AWS_EC2_RUNS);" \
  "median [min-max]; wall = whole process, cpu = user+sys, RSS = peak"

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
  data="$work/awsdata/ec2/2016-11-15"
  if [ "$have_aws_ec2" = yes ]; then
    mkdir -p "$data"
    jq --arg url "$endpoint" \
      '.rules = [{"conditions": [], "endpoint": {"url": $url, "properties": {}, "headers": {}}, "type": "endpoint"}]' \
      /usr/lib/python3/dist-packages/botocore/data/ec2/2016-11-15/endpoint-rule-set-1.json \
      > "$data/endpoint-rule-set-1.json"
  fi
  rm -f "$work"/*.samples
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)

  # Warm-up: the stand-in's JIT and its memo of rendered pages (both clients ask the same
  # queries; gpugen's per-zone partitions are warmed by one untimed run).
  "$work/curl-pages.sh" "$endpoint" "$work/page.xml"
  rm -rf "$GPUGEN_CACHE_DIR"
  "$script" --list > /dev/null

  for round in $(seq "$RUNS"); do
    echo "bench: N=$n round $round/$RUNS" >&2
    once hello : java -cp "$work" Hello
    once curl : "$work/curl-pages.sh" "$endpoint" "$work/page.xml"
    once cold 'rm -rf "$GPUGEN_CACHE_DIR"' "$script" --list
    cp "$work/cold.out" "$work/cold.json"
    once warm : "$script" --list
    cmp -s "$work/warm.out" "$work/cold.json" \
      || { echo "bench: the cached output differs from the live one" >&2; exit 1; }
    if [ "$round" -le "$AWS_EC2_RUNS" ]; then
      once ansible_gpugen 'rm -rf "$GPUGEN_CACHE_DIR"' ansible-inventory -i "$script" --list
      if [ "$have_aws_ec2" = yes ]; then
        once aws_ec2 : env AWS_DATA_PATH="$work/awsdata" \
          ansible-inventory -i "$work/bench.aws_ec2.yml" --list
      fi
    fi
  done

  jq -r '.gpu_nodes.hosts[]' "$work/cold.json" | sort > "$work/gpugen.hosts"
  host_check="aws_ec2 not run"
  if [ "$have_aws_ec2" = yes ]; then
    jq -r '._meta.hostvars | keys[]' "$work/aws_ec2.out" | sort > "$work/aws_ec2.hosts"
    if cmp -s "$work/gpugen.hosts" "$work/aws_ec2.hosts"; then
      host_check="equal ($(wc -l < "$work/gpugen.hosts") hosts in both)"
    else
      echo "bench: gpugen and aws_ec2 return DIFFERENT host sets" >&2
      diff "$work/gpugen.hosts" "$work/aws_ec2.hosts" | head >&2
      exit 1
    fi
  fi

  echo
  echo "N = $n instances (+ $((n / 10)) foreign/stopped); load average $load_before before," \
    "$(cut -d' ' -f1-3 /proc/loadavg) after"
  echo
  echo "| run | wall s | cpu s | peak RSS MiB | runs |"
  echo "|---|---:|---:|---:|---:|"
  row "baseline: java Hello (JVM start)" hello
  row "baseline: curl, the same $(( (n + 999) / 1000 )) pages" curl
  row "gpugen-inventory --list, cold (no cache)" cold
  row "gpugen-inventory --list, warm (cache hit)" warm
  row "ansible-inventory -i gpugen-inventory, cold" ansible_gpugen
  if [ "$have_aws_ec2" = yes ]; then
    row "ansible-inventory, amazon.aws.aws_ec2 5.5.1" aws_ec2
  fi
  echo
  echo "host sets: $host_check; cached output = live output"
  if [ "$have_aws_ec2" = yes ]; then
    echo "aws_ec2 / gpugen cold, wall: $(ratio aws_ec2 cold 1)   (goal at 16000: >= 20x)"
    echo "aws_ec2 / gpugen cold, cpu:  $(ratio aws_ec2 cold 2)"
    echo "aws_ec2 / ansible-inventory over gpugen, wall: $(ratio aws_ec2 ansible_gpugen 1)"
  else
    echo "(aws_ec2 rows skipped: needs Debian's ansible and python3-boto3)"
  fi
  echo "gpugen cold / curl of the same pages, wall: $(ratio cold curl 1)"
  echo "gpugen cold / java Hello, wall: $(ratio cold hello 1)"
  echo "gpugen warm / java Hello, wall: $(ratio warm hello 1)"

  kill "$standin_pid" 2>/dev/null || true
  wait "$standin_pid" 2>/dev/null || true
  standin_pid=""
done
