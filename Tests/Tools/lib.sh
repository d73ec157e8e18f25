# Shared by demo.sh and bench.sh: start the loopback fixture HTTP server and gpsfake, and
# clean up everything started, gpsfake's own gpsd included. Source it after `cd` to the
# repository root; it sets `work` (a temporary directory) and an EXIT trap.
work=$(mktemp -d /tmp/wundercast-run.XXXXXX)
pids=()
gpsfake_pid=
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  # gpsfake starts its own gpsd: end the whole process group it leads.
  [ -n "$gpsfake_pid" ] && kill -- -"$gpsfake_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  # gpsd's control socket, left behind when gpsfake is ended by a signal.
  [ -n "$gpsfake_pid" ] && rm -f "/tmp/gpsfake-$gpsfake_pid.sock"
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# start_fixture_server: serves recorded Open-Meteo responses; sets fixture_url.
start_fixture_server() {
  mkdir -p "$work/http"
  python3 Tests/Tools/fixture_http_server.py --root Tests/Fixtures --port 0 --state "$work/http" \
    > "$work/http.out" 2> "$work/http.err" < /dev/zero &
  pids+=($!)
  for _ in $(seq 100); do grep -q '^PORT ' "$work/http.out" 2>/dev/null && break; sleep 0.1; done
  fixture_url="http://127.0.0.1:$(awk '/^PORT /{print $2}' "$work/http.out")"
}

# start_gpsfake PORT CYCLE LOG: replays LOG in a loop into a private gpsd on 127.0.0.1:PORT.
start_gpsfake() {
  setsid gpsfake -q -P "$1" -c "$2" "$3" > "$work/gpsfake.log" 2>&1 &
  gpsfake_pid=$!
}

# wait_for_socket PATH: up to 10 s.
wait_for_socket() {
  for _ in $(seq 100); do [ -S "$1" ] && return 0; sleep 0.1; done
  return 1
}
