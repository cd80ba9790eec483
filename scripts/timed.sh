#!/usr/bin/env bash
# timed.sh NAME COMMAND...: runs COMMAND with every line it prints prefixed
# by "NAME | ", so that suites running side by side can be told apart, and
# appends a line "NAME<TAB>seconds<TAB>exit status<TAB>load average at the
# start and end<TAB>CPU seconds" to $TIMES (default build/times/suites.tsv)
# for scripts/times.sh, and keeps what it printed in NAME.log beside it. It
# exits with COMMAND's status.
#
# The CPU seconds are those of every process COMMAND started, read from a
# cgroup of its own where the machine lets one be made (cgroup v1 cpuacct,
# as root), since a browser's renderers are reaped by their zygote and not
# by the browser; elsewhere they are `times`'s, which counts only processes
# waited for all the way up, and the column says "≥".
set -uo pipefail
name=$1
shift
times=${TIMES:-build/times/suites.tsv}
mkdir -p "$(dirname "$times")"
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'; }
group=/sys/fs/cgroup/cpuacct/dpplay-$name-$$
if mkdir "$group" 2>/dev/null && echo $$ >"$group/cgroup.procs" 2>/dev/null; then
  trap 'echo $$ >"${group%/*}/cgroup.procs"; rmdir "$group"' EXIT
else
  rmdir "$group" 2>/dev/null
  group=
fi
start=$(date +%s.%N) from=$(load)
"$@" 2>&1 | tee "$(dirname "$times")/$name.log" | sed -u "s/^/$name | /"
rc=${PIPESTATUS[0]}
end=$(date +%s.%N)
if [ -n "$group" ]; then
  cpu=$(awk '{ printf "%.0f", $1 / 1e9 }' "$group/cpuacct.usage")
else
  # The second line of `times` is the children's user and system time, as
  # 1m2.5s; it is read in this shell, as a subshell starts with none.
  times >"$times.cpu.$$"
  cpu=≥$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.0f", t }' "$times.cpu.$$")
  rm -f "$times.cpu.$$"
fi
awk -v n="$name" -v s="$start" -v e="$end" -v rc="$rc" -v l="$from..$(load)" -v c="$cpu" 'BEGIN { printf "%s\t%.1f\t%d\t%s\t%s\n", n, e - s, rc, l, c }' >> "$times"
exit "$rc"
