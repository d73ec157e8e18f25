#!/usr/bin/env bash
# `make fuzz` / `make fuzz-long`: builds the libFuzzer targets (Tests/Fuzz/README.md; declared in
# Package.swift only when WUNDERCAST_FUZZ=1) with ASan in their own scratch path, runs each for
# FUZZ_SECONDS (default 60) from its seed corpus (Tests/Fuzz/corpus/TARGET) plus what earlier
# runs found (.build/fuzz/runs/TARGET/corpus), and prints one table: target, executions,
# libFuzzer's `cov:` (coverage edges reached), corpus size, crashes. Exits 1 when a target
# crashed (any artifact: crash, leak, timeout, out-of-memory) or reached no coverage (an
# uninstrumented build), 2 when a build failed.
#
#   FUZZ_SECONDS=600 bash Tests/Tools/fuzz.sh             # longer
#   FUZZ_TARGETS="request gpsd-report" bash Tests/Tools/fuzz.sh
#   .build/fuzz/release/fuzz-request FILE...                # replays inputs (a crash's artifact)
set -uo pipefail
cd "$(dirname "$0")/../.."

seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-"configuration request open-meteo openweathermap-current openweathermap-forecast metno gpsd-report city-image last-state alerts"}
scratch=.build/fuzz
runs=$scratch/runs
mkdir -p "$runs"
# Swift's backtracer would hold a crashing run for minutes (it symbolicates interactively).
export SWIFT_BACKTRACE=enable=no

# SwiftPM's two --sanitize flags alone link libFuzzer but give no coverage instrumentation
# (cov: 0): -sanitize=fuzzer must reach swiftc too. Optimised (about 20 times the executions of a
# debug build), with -enable-testing for the targets' `@testable import`. One scratch path for
# every target: the library modules are built once, each target only links.
for target in $targets; do
  echo "building fuzz-$target"
  if ! WUNDERCAST_FUZZ=1 swift build -c release -Xswiftc -enable-testing --scratch-path "$scratch" \
    --product "fuzz-$target" --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer,address >"$runs/build-$target.log" 2>&1; then
    grep -v 'ld.gold: warning' "$runs/build-$target.log" | tail -30
    echo "fuzz: building fuzz-$target failed (log: $runs/build-$target.log)"
    exit 2
  fi
done

status=0
rows=()
for target in $targets; do
  dir=$runs/$target
  mkdir -p "$dir/corpus" "$dir/artifacts"
  touch "$dir/started"
  echo "fuzzing $target for ${seconds}s"
  # New finds go to the first directory (kept between runs), never into the checked-in seeds.
  "$scratch/release/fuzz-$target" "$dir/corpus" "Tests/Fuzz/corpus/$target" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" >"$dir/log.txt" 2>&1
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log.txt" | tail -1)
  coverage=$(grep -o 'cov: [0-9]*' "$dir/log.txt" | tail -1 | cut -d' ' -f2)
  corpus=$(grep -o 'corp: [0-9]*' "$dir/log.txt" | tail -1 | cut -d' ' -f2)
  found=$(find "$dir/artifacts" -type f -newer "$dir/started" | sort)
  crashes=$(printf '%s' "$found" | grep -c . || true)
  rows+=("$(printf '%-26s %12s %7s %8s %8s' "$target" "${executions:-?}" "${coverage:-0}" "${corpus:-?}" "$crashes")")
  if [ "$crashes" -gt 0 ]; then
    status=1
    echo "fuzz: $target crashed; artifacts (replay with $scratch/release/fuzz-$target FILE):"
    printf '%s\n' "$found" | sed 's/^/  /'
    grep -m1 -A12 -E '^==[0-9]+==|Fatal error|ERROR: libFuzzer' "$dir/log.txt" | sed 's/^/  /'
  fi
  if [ "${coverage:-0}" -eq 0 ]; then
    status=1
    echo "fuzz: $target reached no coverage (built without -sanitize=fuzzer?); log: $dir/log.txt"
  fi
done

{
  printf '%-26s %12s %7s %8s %8s\n' target executions cov corpus crashes
  printf '%s\n' "${rows[@]}"
} | tee "$runs/summary.txt"
exit $status
