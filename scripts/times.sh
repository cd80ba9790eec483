#!/usr/bin/env bash
# times.sh [DIR]: prints the table of what `make test` took, from DIR
# (default build/times): each suite's wall time, exit status, CPU time
# and load average (suites.tsv, written by scripts/timed.sh), then each browser test
# file's (browser.tsv, written by e2e/reporter.mjs), slowest first, and
# last each browser failure (failures.txt, the reporter's too) and, for
# any other suite that failed, its Go test failures and its last lines
# (from NAME.log, timed.sh's).
dir=${1:-build/times}
[ -f "$dir/suites.tsv" ] || exit 0
echo
echo "make test: time per suite (suites run side by side on $(nproc) cores)"
sort -t$'\t' -k2,2nr "$dir/suites.tsv" | awk -F'\t' '{ printf "  %-10s %7.1f s  %s  %6s CPU-s  load %s\n", $1, $2, ($3 == 0 ? "ok  " : "FAIL"), $5, $4 }'
if [ -f "$dir/browser.tsv" ]; then
  echo "browser: time per file (files run side by side)"
  sort -t$'\t' -k2,2nr "$dir/browser.tsv" | awk -F'\t' '{ printf "  %-34s %7.1f s  %3d tests%s\n", $1, $2, $3, ($4 > 0 ? "  " $4 " failed" : "") }'
fi
if [ -s "$dir/failures.txt" ]; then
  echo
  echo "browser: failures"
  cat "$dir/failures.txt"
fi
sort -t$'\t' -k2,2nr "$dir/suites.tsv" | awk -F'\t' '$3 != 0 && $1 != "browser" { print $1 }' | while read -r suite; do
  echo
  echo "$suite: where it failed (all of it in $dir/$suite.log)"
  grep -E -A12 -- '^ *(--- FAIL|panic:)' "$dir/$suite.log" | head -80
  echo "  … its last lines:"
  tail -n 25 "$dir/$suite.log"
done
