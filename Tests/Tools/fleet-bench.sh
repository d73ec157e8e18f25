#!/usr/bin/env bash
# The simulated fleet of `make bench` (issue 16; printed, never asserted, not in CI):
# FLEET_SIZE (20) daemons on this machine, each with its own ClientID and topic prefix, following
# the bundled real tracks (four gpsfake replays started a second apart; several daemons share a
# gpsd), publishing into one real mosquitto. Figures: messages per second into the broker, the
# broker's CPU, the delay from the gpsd report that moved a daemon's rounded position to a
# subscriber's receipt of that state (p50/p99; gpspipe timestamps every report, mosquitto_sub
# every message), and each daemon's RSS and CPU with MQTT on against the same fleet with it off
# (targets: at most +1 MiB RSS, at most +10 % CPU).
#   bash Tests/Tools/fleet-bench.sh [BIN]   (BIN: the directory of wundercastd; make bench passes its release build)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-.build/release}
size=${FLEET_SIZE:-20}
seconds=${FLEET_SECONDS:-30}
. Tests/Tools/lib.sh
groups=()
fleet_cleanup() {
  for g in "${groups[@]}"; do kill -- -"$g" 2>/dev/null || true; done
  cleanup
}
trap fleet_cleanup EXIT

start_fixture_server
logs=(Tests/Fixtures/nmea/bundg_zeus_9.log Tests/Fixtures/nmea/car_regensburg_garmin-geko_2010-04-11_26min.nmea
  Tests/Fixtures/nmea/kayak_tomales-bay_2018-08-20_2h13.nmea Tests/Fixtures/nmea/nl2008u.log)
gports=()
for i in "${!logs[@]}"; do
  port=$(free_port)
  gports+=("$port")
  setsid gpsfake -q -P "$port" -c 0.02 "${logs[$i]}" > "$work/gpsfake-$i.log" 2>&1 &
  groups+=($!)
  sleep 1  # the tracks offset in time
done
for i in "${!gports[@]}"; do
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/${gports[$i]}") 2>/dev/null && break; sleep 0.1; done
  gpspipe -w -uu "127.0.0.1:${gports[$i]}" > "$work/tpv-$i.txt" 2>/dev/null &
  pids+=($!)
done

bport=$(free_port)
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\n' "$bport" > "$work/broker.conf"
mosquitto -c "$work/broker.conf" > "$work/broker.log" 2>&1 &
broker=$!
pids+=($broker)
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$bport") 2>/dev/null && break; sleep 0.1; done
mosquitto_sub -p "$bport" -t 'fleet/#' -F '%U|%t|%p' > "$work/received.txt" 2>/dev/null &
pids+=($!)

# start_fleet ON|OFF: the daemons, MQTT on or off; their pids in `fleet`.
fleet=()
start_fleet() {
  fleet=()
  for i in $(seq 0 $((size - 1))); do
    mkdir -p "$work/state-$i"
    {
      printf '[Location]\nGPSD=127.0.0.1:%s\nMaxHorizontalError=10km\n' "${gports[$((i % ${#gports[@]}))]}"
      printf '[Throttle]\nMinInterval=5s\nMinDistance=200m\n[Weather]\nURL=%s\nPrecision=3\nMarine=no\n' "$fixture_url"
      printf '[Socket]\nPath=%s/d%s.sock\n' "$work" "$i"
      if [ "$1" = ON ]; then
        printf '[MQTT]\nBroker=mqtt://127.0.0.1:%s\nClientID=bench-%s\nTopicPrefix=fleet/van-%s\n' "$bport" "$i" "$i"
      fi
    } > "$work/d$i.conf"
    rm -f "$work/d$i.sock"
    STATE_DIRECTORY="$work/state-$i" "$bin/wundercastd" --config "$work/d$i.conf" 2> "$work/d$i-$1.log" &
    fleet+=($!)
    pids+=($!)
  done
  for i in $(seq 0 $((size - 1))); do wait_for_socket "$work/d$i.sock"; done
}
stop_fleet() {
  for p in "${fleet[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${fleet[@]}"; do wait "$p" 2>/dev/null || true; done
}
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# measure: after 5 s of warming up, CPU ticks of each daemon and the broker over `seconds`,
# then each daemon's RSS; prints "cpu_percent_mean rss_kb_mean broker_cpu_percent t0 t1".
measure() {
  sleep 5
  local -a c0=() c1=()
  local b0 b1 t0 t1 rss=0 cpu=0
  for p in "${fleet[@]}"; do c0+=("$(ticks "$p")"); done
  b0=$(ticks "$broker"); t0=$(date +%s.%N)
  sleep "$seconds"
  for p in "${fleet[@]}"; do c1+=("$(ticks "$p")"); done
  b1=$(ticks "$broker"); t1=$(date +%s.%N)
  for i in "${!fleet[@]}"; do
    cpu=$((cpu + c1[i] - c0[i]))
    rss=$((rss + $(awk '/VmRSS/{print $2}' "/proc/${fleet[$i]}/status")))
  done
  awk -v c="$cpu" -v r="$rss" -v n="${#fleet[@]}" -v b="$((b1 - b0))" -v t0="$t0" -v t1="$t1" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { d = t1 - t0; printf "%.3f %d %.2f %s %s\n", 100 * c / hz / d / n, r / n, 100 * b / hz / d, t0, t1 }'
}

start_fleet ON
read -r on_cpu on_rss broker_cpu t0 t1 < <(measure)
stop_fleet
start_fleet OFF
read -r off_cpu off_rss _ _ _ < <(measure)
stop_fleet

echo "simulated fleet: $size daemons on ${#gports[@]} gpsd (the bundled tracks, offset), one mosquitto, ${seconds} s:"
python3 - "$work" "$t0" "$t1" "${#gports[@]}" <<'PY'
import json, sys
work, t0, t1, gpsds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
def rounded(lat, lon): return (round(lat, 3), round(lon, 3))
# Each gpsd's reports: (time, rounded position) of those that moved the rounded position.
moves = []
for g in range(gpsds):
    last, out = None, []
    for line in open(f"{work}/tpv-{g}.txt", errors="replace"):
        head, _, body = line.partition(": {")
        if '"class":"TPV"' not in body: continue
        try:
            tpv = json.loads("{" + body); when = float(head.split()[-1])
        except (ValueError, IndexError): continue
        if "lat" not in tpv or "lon" not in tpv: continue
        pos = rounded(tpv["lat"], tpv["lon"])
        if pos != last: out.append((when, pos)); last = pos
    moves.append(out)
count, delays, previous = 0, [], {}
for line in open(f"{work}/received.txt", errors="replace"):
    parts = line.rstrip("\n").split("|", 2)
    if len(parts) != 3: continue
    try: when = float(parts[0])
    except ValueError: continue
    if not (t0 <= when <= t1): continue
    count += 1
    topic, payload = parts[1], parts[2]
    if not topic.endswith("/state"): continue
    try: state = json.loads(payload)
    except ValueError: continue
    loc = state.get("location")
    if not loc: continue
    pos = rounded(loc["latitude"], loc["longitude"])
    van = topic.split("/")[1]
    if previous.get(van) == pos: continue
    previous[van] = pos
    g = int(van.split("-")[1]) % gpsds
    # The newest report before the receipt that moved the rounded position there.
    sent = [t for t, p in moves[g] if p == pos and t <= when]
    if sent and when - sent[-1] < 5: delays.append(1000 * (when - sent[-1]))
delays.sort()
def q(p): return delays[min(len(delays) - 1, int(p * len(delays)))] if delays else float("nan")
print(f"  messages into the broker: {count / (t1 - t0):.1f}/s (state and location of every daemon)")
print(f"  delay from the gpsd report that moved the rounded position to the subscriber: p50 {q(0.5):.1f} ms, p99 {q(0.99):.1f} ms ({len(delays)} moves)")
PY
echo "  broker CPU: ${broker_cpu}% of one core"
awk -v a="$on_rss" -v b="$off_rss" -v c="$on_cpu" -v d="$off_cpu" 'BEGIN {
  printf "  per daemon, MQTT on against off: RSS %d against %d kB (%+d kB; target <= +1024): %s\n", a, b, a - b, a - b <= 1024 ? "met" : "not met"
  rel = d > 0 ? 100 * (c - d) / d : 0
  printf "  per daemon, MQTT on against off: CPU %.2f%% against %.2f%% of a core (%+.0f %%; target <= +10 %%): %s\n", c, d, rel, rel <= 10 ? "met" : "not met" }'
