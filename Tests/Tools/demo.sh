#!/usr/bin/env bash
# The main job on the bundled real GPS track: gpsfake replays a real car drive (Regensburg,
# 2010, Tests/Fixtures/nmea/) into a private gpsd, wundercastd follows it and fetches the
# weather, and `wundercastctl watch` shows every change. Run through `make demo`.
#
# Weather comes from the real Open-Meteo when it is reachable. When it is not (no network),
# the demo says so and serves the RECORDED Open-Meteo responses bundled with the tests from
# a loopback server; every line shown is then prefixed "[recorded]". The daemon itself never
# invents weather.
#
# DEMO_SECONDS (default 120; 0 = until Ctrl-C) bounds the run. DEMO_TRACK picks another log.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bin=$(swift build --show-bin-path)
track=${DEMO_TRACK:-$root/Tests/Fixtures/nmea/car_regensburg_garmin-geko_2010-04-11_26min.nmea}
seconds=${DEMO_SECONDS:-120}
. Tests/Tools/lib.sh

label=""
url=https://api.open-meteo.com
alerts_url=https://api.brightsky.dev
if python3 - <<'PY' 2>/dev/null
import urllib.request, sys
req = urllib.request.Request("https://api.open-meteo.com/v1/forecast?latitude=49.01&longitude=12.1&current=temperature_2m",
                             headers={"User-Agent": "wundercast-demo"})
urllib.request.urlopen(req, timeout=5).read()
PY
then
  echo "demo: Open-Meteo is reachable: live weather."
else
  echo "demo: Open-Meteo is NOT reachable (no network). Serving RECORDED Open-Meteo responses"
  echo "      (Tests/Fixtures/weather/open-meteo, recorded in Bucharest) from a loopback server,"
  echo "      and Bright Sky's recorded alerts answer (Tests/Fixtures/alerts/brightsky) for the alerts."
  echo "      Every line below is recorded weather, not live weather, and says so."
  echo "      (wundercastctl --socket on this daemon answers the same recorded weather, unlabelled.)"
  start_fixture_server
  url=$fixture_url
  # Regensburg is Bright Sky's (DWD): its recorded answer, from the same server.
  alerts_url=$fixture_url
  label="[recorded] "
fi

gpsd_port=$(free_port)
# 0.01 s between sentences: the 26-minute drive in under two minutes; the log loops.
start_gpsfake "$gpsd_port" 0.01 "$track"

cat > "$work/wundercast.conf" <<CONF
[Location]
Authorization=always
GPSD=127.0.0.1:$gpsd_port
MaxHorizontalError=100m
[Throttle]
MinInterval=5s
MinDistance=1km
MaxAge=5min
[Weather]
URL=$url
# The fixture server's Marine answer is the North Sea's: not for a car in Regensburg.
Marine=no
Units=metric
Precision=2
Timeout=10s
[Socket]
Path=$work/wundercast.sock
[Places]
# The city table make built (make install puts it where the default Cities= points).
Cities=$PWD/.build/cities.bin
[Alerts]
BrightSkyURL=$alerts_url
CONF

"$bin/wundercastd" --config "$work/wundercast.conf" 2> "$work/wundercastd.log" &
pids+=($!)
wait_for_socket "$work/wundercast.sock" || { echo "demo: wundercastd did not start:"; cat "$work/wundercastd.log"; exit 1; }

echo "demo: replaying $(basename "$track") into gpsd on 127.0.0.1:$gpsd_port; wundercastd on $work/wundercast.sock"
echo "demo: wundercastctl watch (one line per change; ${seconds}s, 0 = until Ctrl-C):"
watch_cmd=("$bin/wundercastctl" --socket "$work/wundercast.sock" watch)
if [ "$seconds" = 0 ]; then
  "${watch_cmd[@]}" | sed -u "s/^/$label/"
else
  timeout "$seconds" "${watch_cmd[@]}" | sed -u "s/^/$label/" || true
fi
echo "demo: the daemon's current state (wundercastctl now --json):"
"$bin/wundercastctl" --socket "$work/wundercast.sock" now --json
