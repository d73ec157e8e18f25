#!/usr/bin/env bash
# Benchmark figures (printed, never asserted): wundercastd's memory and CPU while it follows
# a real track replayed fast, and the latency of `wundercastctl now`. Run through `make bench`
# (release build). All traffic stays on loopback: recorded weather from the fixture server.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(swift build -c release --show-bin-path)
seconds=${BENCH_SECONDS:-20}
. Tests/Tools/lib.sh

start_fixture_server
gpsd_port=$(free_port)
# The boat log at ~1000 sentences/s (30x real time), looping.
start_gpsfake "$gpsd_port" 0.001 Tests/Fixtures/nmea/bundg_zeus_9.log
cat > "$work/c.conf" <<CONF
[Location]
GPSD=127.0.0.1:$gpsd_port
MaxHorizontalError=10km
[Throttle]
MinInterval=0
MinDistance=50m
[Weather]
URL=$fixture_url
[Socket]
Path=$work/s.sock
CONF
"$bin/wundercastd" --config "$work/c.conf" 2> "$work/d.log" &
dpid=$!
pids+=($dpid)
wait_for_socket "$work/s.sock"
ticks=$(getconf CLK_TCK)
cpu() { awk '{print $14+$15}' "/proc/$dpid/stat"; }
sleep 2
c0=$(cpu); t0=$(date +%s.%N)
sleep "$seconds"
c1=$(cpu); t1=$(date +%s.%N)
rss=$(awk '/VmRSS/{print $2}' "/proc/$dpid/status")
hwm=$(awk '/VmHWM/{print $2}' "/proc/$dpid/status")
threads=$(awk '/Threads/{print $2}' "/proc/$dpid/status")
requests=$(grep -c '"/v1/forecast"' "$work/http/requests.jsonl" 2>/dev/null || echo 0)
echo "wundercastd following a 30x replay for ${seconds}s:"
awk -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v hz="$ticks" \
  'BEGIN { printf "  CPU: %.2f%% of one core\n", 100 * (c1 - c0) / hz / (t1 - t0) }'
echo "  RSS: ${rss} kB (peak ${hwm} kB), threads: ${threads}, weather requests: ${requests}"
n=200
start=$(date +%s.%N)
for _ in $(seq $n); do "$bin/wundercastctl" --socket "$work/s.sock" now > /dev/null; done
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" -v n="$n" 'BEGIN { printf "  wundercastctl now: %.2f ms per call (process start included, %d calls)\n", 1000 * (e - s) / n, n }'
