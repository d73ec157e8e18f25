#!/usr/bin/env bash
# Benchmark figures (printed, never asserted): wundercastd's memory and CPU while it follows
# a real track replayed fast; its `now` rate beside gpsd's `?POLL;` rate (one load generator,
# Tests/Tools/loadgen.c, 8 concurrent clients, fresh and persistent connections); the time of
# `wundercastctl now` beside `socat` sending `now`; the delay from one state change to the
# last of 1,000 watchers receiving it; and the idle memory of the daemon as `make install`
# installs it (static Swift runtime, stripped) beside gpsd's.
# Last, the simulated fleet of issue 16 (Tests/Tools/fleet-bench.sh): 20 daemons into one mosquitto.
# Run through `make bench` (release build, Swift runtime linked in, as `make install` does).
# All traffic stays on loopback: recorded weather from the fixture server.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
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
MinInterval=1s
MinDistance=50m
[Weather]
URL=$fixture_url
Marine=no
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

# Request rates, measured the same way for both daemons in this run, while both follow the
# replay: wundercastd on its Unix socket, gpsd on its TCP port (its client protocol has no
# Unix socket); gpsd's VERSION banner is read before the first request.
# Any C compiler: Debian's cc, else the clang that comes with the Swift toolchain.
compiler=$(command -v cc || command -v clang)
"$compiler" -O2 -Wall -pthread -o "$work/loadgen" Tests/Tools/loadgen.c
rate_seconds=${BENCH_RATE_SECONDS:-5}
echo "request rate, one load generator with 8 concurrent clients, ${rate_seconds}s each:"
for mode in fresh persistent; do
  w=$("$work/loadgen" rate "unix:$work/s.sock" 'now\n' 0 "$rate_seconds" 8 "$mode")
  g=$("$work/loadgen" rate "tcp:127.0.0.1:$gpsd_port" '?POLL;\n' 1 "$rate_seconds" 8 "$mode")
  awk -v w="$w" -v g="$g" -v m="$mode" 'BEGIN { printf "  %-10s connections: wundercastd now %7d/s, gpsd ?POLL; %7d/s, ratio %.2f (target >= 1.0)\n", m, w, g, w / g }'
done

# One call from a shell: the installed (stripped, static) wundercastctl against socat.
install -s -m 0755 "$bin/wundercastctl" "$work/wundercastctl"
n=${BENCH_CALLS:-200}
per_call() { awk -v s="$1" -v e="$2" -v n="$n" 'BEGIN { printf "%.3f", 1000 * (e - s) / n }'; }
start=$(date +%s.%N)
for _ in $(seq "$n"); do "$work/wundercastctl" --socket "$work/s.sock" now > /dev/null; done
ctl=$(per_call "$start" "$(date +%s.%N)")
start=$(date +%s.%N)
for _ in $(seq "$n"); do echo now | socat - "UNIX-CONNECT:$work/s.sock" > /dev/null; done
soc=$(per_call "$start" "$(date +%s.%N)")
awk -v c="$ctl" -v s="$soc" -v n="$n" 'BEGIN { printf "one call (process start included, %d calls each): wundercastctl now %.2f ms, socat %.2f ms, ratio %.2f (target <= 1.3)\n", n, c, s, c / s }'

kill "$dpid" 2>/dev/null || true
wait "$dpid" 2>/dev/null || true

# 1,000 watchers of a quiet daemon (no GPS, no weather: only the changes the load generator
# makes, by deciding `authorize denied` / `authorize ask` in turn).
cat > "$work/w.conf" <<CONF
[Location]
Authorization=ask
GPSD=127.0.0.1:1
[Weather]
URL=$fixture_url
Marine=no
[Socket]
Path=$work/w.sock
MaxClients=2000
CONF
"$bin/wundercastd" --config "$work/w.conf" 2> "$work/w.log" &
wpid=$!
pids+=($wpid)
wait_for_socket "$work/w.sock"
ulimit -n 8192 2>/dev/null || true
read -r p50 p99 < <("$work/loadgen" watch "$work/w.sock" 1000 "${BENCH_WATCH_ROUNDS:-100}")
echo "one state change to the last of 1,000 watchers: p50 ${p50} ms, p99 ${p99} ms"
kill "$wpid" 2>/dev/null || true
wait "$wpid" 2>/dev/null || true

# The installed daemon, idle: stripped like `make install` strips it, a real-time replay
# (one sentence per 30 ms), weather fetched once; no clients.
kill -- -"$gpsfake_pid" 2>/dev/null || true
wait "$gpsfake_pid" 2>/dev/null || true
rm -f "/tmp/gpsfake-$gpsfake_pid.sock"
gpsd_port=$(free_port)
start_gpsfake "$gpsd_port" 0.03 Tests/Fixtures/nmea/bundg_zeus_9.log
sed -e "s|^GPSD=.*|GPSD=127.0.0.1:$gpsd_port|" -e "s|^Path=.*|Path=$work/idle.sock|" "$work/c.conf" > "$work/idle.conf"
install -s -m 0755 "$bin/wundercastd" "$work/wundercastd"
"$work/wundercastd" --config "$work/idle.conf" 2> "$work/idle.log" &
ipid=$!
pids+=($ipid)
wait_for_socket "$work/idle.sock"
state=none
for _ in $(seq 300); do
  state=$("$bin/wundercastctl" --socket "$work/idle.sock" now --json 2>/dev/null | sed -n 's/.*"status":"\([a-zA-Z]*\)".*/\1/p')
  [ "$state" = fresh ] && break
  sleep 0.1
done
sleep "${BENCH_IDLE_SECONDS:-5}"
gpsd_pid=$(pgrep -g "$gpsfake_pid" -x gpsd | head -1 || true)
# smaps_rollup PID FIELD: the field in kB.
rollup() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/smaps_rollup" 2>/dev/null || echo 0; }
echo "installed wundercastd idle ($(stat -c %s "$work/wundercastd") bytes stripped; weather status: ${state:-none}):"
printf '  %-12s %10s %10s %10s\n' "" "RSS kB" "PSS kB" "Anon kB"
wr=$(rollup "$ipid" Rss); wp=$(rollup "$ipid" Pss); wa=$(rollup "$ipid" Anonymous)
printf '  %-12s %10s %10s %10s\n' wundercastd "$wr" "$wp" "$wa"
if [ -n "$gpsd_pid" ]; then
  gr=$(rollup "$gpsd_pid" Rss); gp=$(rollup "$gpsd_pid" Pss); ga=$(rollup "$gpsd_pid" Anonymous)
  printf '  %-12s %10s %10s %10s\n' gpsd "$gr" "$gp" "$ga"
  awk -v wr="$wr" -v wp="$wp" -v wa="$wa" -v gr="$gr" -v gp="$gp" -v ga="$ga" \
    'function r(a, b) { return b > 0 ? sprintf("%.1fx", a / b) : "-" }
     BEGIN { printf "  %-12s %10s %10s %10s\n", "ratio", r(wr, gr), r(wp, gp), r(wa, ga) }'
else
  echo "  gpsd: not found in gpsfake's process group"
fi
# The floor: a do-nothing static binary with the same libraries, initialised (Tests/Tools/Floor).
install -s -m 0755 "$bin/wundercast-floor" "$work/wundercast-floor"
"$work/wundercast-floor" 127.0.0.1 "$gpsd_port" > /dev/null &
fpid=$!
pids+=($fpid)
sleep 1
fr=$(rollup "$fpid" Rss); fp=$(rollup "$fpid" Pss); fa=$(rollup "$fpid" Anonymous)
printf '  %-12s %10s %10s %10s\n' floor "$fr" "$fp" "$fa"
awk -v wa="$wa" 'BEGIN { printf "  target: anonymous <= 3072 kB (3 MiB): %s\n", wa <= 3072 ? "met" : "not met" }'
awk -v wr="$wr" -v fr="$fr" 'BEGIN { printf "  target: RSS <= floor + 4096 kB (%d kB): %s\n", fr + 4096, wr <= fr + 4096 ? "met" : "not met" }'

# Place names: the same installed daemon, idle after one `now`, with the city table
# (.build/cities.bin, `Fallback=` a name so that start-up searches it) and without it
# (`Cities=` empty, `Fallback=` the coordinates that name resolves to). The daemon holds one
# copy of the file in anonymous memory (CityTableFile): the anonymous difference is that copy.
places_rss() {
  cat > "$work/p.conf" <<CONF
[Location]
Authorization=denied
Fallback=$1
GPSD=127.0.0.1:1
[Weather]
URL=$fixture_url
Marine=no
[Socket]
Path=$work/p.sock
[Places]
OnlineGeocoding=no
Cities=$2
CONF
  rm -f "$work/p.sock"
  "$work/wundercastd" --config "$work/p.conf" 2> "$work/p.log" &
  local p=$!
  pids+=($p)
  wait_for_socket "$work/p.sock"
  for _ in $(seq 100); do
    "$bin/wundercastctl" --socket "$work/p.sock" now --json 2>/dev/null | grep -q '"status":"fresh"' && break
    sleep 0.1
  done
  sleep "${BENCH_IDLE_SECONDS:-5}"
  echo "$(rollup "$p" Rss) $(rollup "$p" Anonymous)"
  kill "$p" 2>/dev/null || true
  wait "$p" 2>/dev/null || true
}
if [ -s .build/cities.bin ]; then
  with=0; without=0; awith=0; awithout=0
  for _ in 1 2 3; do
    read -r r a < <(places_rss Regensburg "$PWD/.build/cities.bin"); with=$((with + r)); awith=$((awith + a))
    read -r r a < <(places_rss 49.01513,12.10161 ""); without=$((without + r)); awithout=$((awithout + a))
  done
  awk -v w="$with" -v o="$without" -v aw="$awith" -v ao="$awithout" -v size="$(stat -c %s .build/cities.bin)" 'BEGIN {
    printf "place names (one copy of cities.bin, %d kB, held; idle after a lookup; mean of 3 starts each): RSS %+d kB, anonymous %+d kB (target: the copy, anonymous <= 1024 kB): %s\n",
      size / 1024, (w - o) / 3, (aw - ao) / 3, (aw - ao) / 3 <= 1024 ? "met" : "not met" }'
else
  echo "place names: .build/cities.bin missing (make cities)"
fi

# The simulated fleet (issue 16): 20 daemons into one real broker, MQTT on against off.
if [ -x /usr/sbin/mosquitto ] && [ -x /usr/bin/mosquitto_sub ] && command -v gpspipe > /dev/null; then
  bash Tests/Tools/fleet-bench.sh "$bin"
else
  echo "simulated fleet: needs mosquitto, mosquitto-clients and gpsd-clients (make test installs them)"
fi
