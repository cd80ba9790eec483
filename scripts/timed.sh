#!/usr/bin/env bash
# timed.sh NAME COMMAND...: runs COMMAND with every line it prints prefixed
# by "NAME | ", so that suites running side by side can be told apart, and
# appends a line "NAME<TAB>seconds<TAB>exit status<TAB>load average at the
# start and end" to $TIMES (default build/times/suites.tsv) for
# scripts/times.sh, and keeps what it printed in NAME.log beside it. It exits
# with COMMAND's status.
set -uo pipefail
name=$1
shift
times=${TIMES:-build/times/suites.tsv}
mkdir -p "$(dirname "$times")"
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'; }
start=$(date +%s.%N) from=$(load)
"$@" 2>&1 | tee "$(dirname "$times")/$name.log" | sed -u "s/^/$name | /"
rc=${PIPESTATUS[0]}
end=$(date +%s.%N)
awk -v n="$name" -v s="$start" -v e="$end" -v rc="$rc" -v l="$from..$(load)" 'BEGIN { printf "%s\t%.1f\t%d\t%s\n", n, e - s, rc, l }' >> "$times"
exit "$rc"
