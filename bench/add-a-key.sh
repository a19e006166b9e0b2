#!/usr/bin/env bash
# The "add a spec key" exercise, measured on a commit that adds one: which files it touched by
# hand and which it regenerated. Generated files (goldens, committed renders, the schema, the
# docs' key table) are re-written by commands, not edited; the hand-written ones are the cost.
# Usage: bench/add-a-key.sh COMMIT
set -euo pipefail
cd "$(dirname "$0")/.."
commit=${1:?usage: bench/add-a-key.sh COMMIT}
git log -1 --format='commit %h: %s' "$commit" | cut -c1-100
git show --name-only --format= "$commit" | sort | awk '
  /^roles-generated\// || /^src\/test\/resources\/golden/ || /^schema\// || $0 == "docs/spec.md" ||
  /^src\/test\/resources\/diagnostics\/.*\/fires\.txt$/ { generated++; next }
  /^src\/test\/java\// { tests[++nt] = $0; next }
  /^src\/test\/resources\// { data[++nd] = $0; next }
  { source[++ns] = $0 }
  END {
    printf "hand-written source (%d):\n", ns; for (i = 1; i <= ns; i++) print "  " source[i]
    printf "test code (%d):\n", nt; for (i = 1; i <= nt; i++) print "  " tests[i]
    printf "test data (%d):\n", nd; for (i = 1; i <= nd; i++) print "  " data[i]
    printf "generated, re-written by commands: %d files\n", generated
  }'
