#!/usr/bin/env bash
# The integration suites under load (issue 15): three runs in a row while two CPU hogs
# (`stress-ng --cpu 2`) run; fails when any run fails, prints the minutes of each. Runs the build
# that is there (`make test` before it in CI: `swift test --skip-build`).
#
#   bash Tests/Tools/under-load.sh                    the suites below, 3 runs
#   UNDER_LOAD_RUNS=1 UNDER_LOAD_TESTS=SocketLimitsTests bash Tests/Tools/under-load.sh
#
# The suites: those with real processes, sockets and deadlines — the daemon and its socket server
# (WundercastIntegrationTests), gpsd (fake and real gpsfake), libcurl against loopback servers, the MQTT client against a real mosquitto,
# wundercastctl's connection, sd-bus/sd_notify, the POSIX wrappers. Not the bar tests (real status
# bars, minutes of their own in `make test`) nor the fault suite (`make faults`).
set -uo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
TESTS=${UNDER_LOAD_TESTS:-WundercastIntegrationTests|WundercastGPSDTests|WundercastHTTPTests|WundercastMQTTTests|WundercastCtlTests|WundercastSystemdTests|WundercastPOSIXTests}
RUNS=${UNDER_LOAD_RUNS:-3}
# As many test cases at once as `make test` runs (the Makefile's TEST_WIDTH owns the number).
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-$(make -s print-test-width)}
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH
command -v stress-ng >/dev/null || { echo "under-load: stress-ng is not installed (apt-get install stress-ng)" >&2; exit 2; }

# The hogs: their own process group, ended by its id whatever happens (never by name: other
# builders on the machine may run their own).
setsid stress-ng --cpu 2 --timeout 3h --quiet &
hogs=$!
trap 'kill -- -"$hogs" 2>/dev/null; wait "$hogs" 2>/dev/null' EXIT INT TERM

failed=0
minutes=()
mkdir -p .build
for run in $(seq 1 "$RUNS"); do
  log=.build/under-load-run-$run.log
  start=$SECONDS
  $SWIFT test --skip-build --filter "$TESTS" >"$log" 2>&1
  status=$?
  took=$((SECONDS - start))
  minutes+=("$(printf '%d:%02d' $((took / 60)) $((took % 60)))")
  summary=$(grep -E '^(✔|✘) Test run with' "$log" | tail -1)
  echo "under load, run $run of $RUNS (width $SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH): ${minutes[-1]} min, ${summary:-no summary (status $status)}"
  if [ "$status" != 0 ]; then
    failed=1
    grep -E -A3 '✘ Test .* recorded an issue' "$log" | head -60
    echo "(the whole run's output: $log)"
  fi
done
echo "the integration suites under stress-ng --cpu 2: ${minutes[*]} (min:s per run)"
exit "$failed"
