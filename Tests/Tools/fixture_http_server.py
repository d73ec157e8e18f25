#!/usr/bin/env python3
"""Loopback HTTP/1.1 server that serves RECORDED weather-API responses from Tests/Fixtures.

For tests only: it binds 127.0.0.1 and nothing else, and never makes a request of its own.

    fixture_http_server.py --root Tests/Fixtures --port 0 --state DIR

After binding it prints "PORT <n>" on stdout. It exits when stdin closes (unless --keep-running)
or on SIGTERM/SIGINT.

Routes:
  GET /v1/forecast   200 with weather/open-meteo/current_bucharest_metric.json, or
                     current_bucharest_fahrenheit_mph.json when temperature_unit=fahrenheit.
                     With N comma-separated coordinates (latitude=a,b,c), a success is answered as
                     Open-Meteo does, with a JSON array: N copies of the recorded body (an array
                     this server builds; the copies keep the recorded coordinates). A control
                     "body" is sent as given.
  GET /v1/search     200 with weather/open-meteo/geocoding_no_results.json (Open-Meteo geocoding:
                     no match); control.json changes it as for /v1/forecast.
  GET /v1/marine     200 with weather/open-meteo-marine/northsea_all_variables_current_minutely15_hourly_daily_2026-10.json
                     (Open-Meteo's Marine API at sea); control.json changes it as for /v1/forecast.
  GET /weatherapi/locationforecast/2.0/compact
                     MET Norway: 200 with weather/metno/compact_newyork.wrapped.json; control.json
                     changes it as for /v1/forecast.
  GET /data/2.5/weather, GET /data/2.5/forecast
                     OpenWeatherMap 2.5: 200 with weather/openweathermap/weather_zocca_standard.json and
                     weather/openweathermap/forecast_moravska-trebova_2015.json (under --root: a test may
                     serve its own variants from a directory of its own); control.json changes both.
  GET /alerts/active, GET /alerts, GET /weatherapi/metalerts/2.0/current.json,
  GET /collections/weather-alerts/items
                     official alerts (NWS, Bright Sky, MET Norway's MetAlerts, ECCC): 200 with
                     alerts/nws/active_point_phoenix_2024-07-18.json,
                     alerts/brightsky/alerts_muenster_wind_gusts.json,
                     alerts/metalerts/current_marine_gale_3_multipolygon_no.json and
                     alerts/eccc/alerts_wfs_env_canada_handwritten.json; control.json changes them.
  GET /redirect?to=TARGET
                     302 to TARGET with "X-Fixture-Hop: redirect"; TARGET is a path ("/v1/forecast")
                     or a URL on 127.0.0.1 of any scheme (to test which redirects a client refuses).
  anything else      404 {"error": true, "reason": "no fixture for /PATH"}
Bodies are gzip-compressed when the request's Accept-Encoding includes gzip. A "*.wrapped.json" file
(a recorded answer as {"status_code", "headers", "data"}) is served as its "data", with its recorded
status and its Date, Expires and Last-Modified headers (control.json's status and headers win).

STATE/control.json is read on every request and changes the /v1/forecast and /v1/search answers; all members
are optional:
  {"status": 500, "body": "text", "file": "weather/open-meteo/error_400.json",
   "retryAfter": 3, "delaySeconds": 1.5, "headers": {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}}
"headers" are extra response headers sent as given (after "retryAfter").
"body" wins over "file"; "file" is relative to --root and must stay inside it.
Failure shapes (also optional):
  "bodyBytes": N       the body is the chosen one repeated and cut to exactly N bytes (oversized bodies)
  "gzip": false        never compress (default: compress when the client accepts gzip; a
                       repeated body then shrinks on the wire: a small Content-Length, a large body)
  "chunked": true      Transfer-Encoding: chunked, no Content-Length
  "truncateAt": N      announce the whole body (Content-Length, or chunks) but send only its first
                       N bytes on the wire (after compression), then close the connection
  "lastModified": D    send "Last-Modified: D"; a request whose If-Modified-Since is exactly D
                       gets 304 with no body (as MET Norway does)
Every request is appended to STATE/requests.jsonl as one JSON object per line:
  {"method", "path", "queryString", "query": {name: last value}, "headers": {lower-case name: value}, "time"}
"""

import argparse
import gzip
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

HOST = "127.0.0.1"
METRIC = "weather/open-meteo/current_bucharest_metric.json"
IMPERIAL = "weather/open-meteo/current_bucharest_fahrenheit_mph.json"
NO_RESULTS = "weather/open-meteo/geocoding_no_results.json"
MARINE = "weather/open-meteo-marine/northsea_all_variables_current_minutely15_hourly_daily_2026-10.json"
METNO = "weather/metno/compact_newyork.wrapped.json"
METNO_PATH = "/weatherapi/locationforecast/2.0/compact"
RECORDED_HEADERS = ("Date", "Expires", "Last-Modified")
ALERT_ROUTES = {
    "/alerts/active": "alerts/nws/active_point_phoenix_2024-07-18.json",
    "/alerts": "alerts/brightsky/alerts_muenster_wind_gusts.json",
    "/weatherapi/metalerts/2.0/current.json": "alerts/metalerts/current_marine_gale_3_multipolygon_no.json",
    "/collections/weather-alerts/items": "alerts/eccc/alerts_wfs_env_canada_handwritten.json",
}
OWM_ROUTES = {
    "/data/2.5/weather": "weather/openweathermap/weather_zocca_standard.json",
    "/data/2.5/forecast": "weather/openweathermap/forecast_moravska-trebova_2015.json",
}


class FixtureServer(ThreadingHTTPServer):
    daemon_threads = True  # a delayed answer must not hold up shutdown
    allow_reuse_address = True

    def __init__(self, port, root, state):
        super().__init__((HOST, port), FixtureHandler)
        self.root = os.path.realpath(root)
        self.state = state
        self.log_lock = threading.Lock()


class FixtureHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "wundercast-fixture/1"

    def log_message(self, format, *args):
        sys.stderr.write("fixture_http_server: %s - %s\n" % (self.address_string(), format % args))

    # -- helpers ----------------------------------------------------------------------------

    def control(self):
        path = os.path.join(self.server.state, "control.json")
        try:
            with open(path, "rb") as f:
                value = json.load(f)
            return value if isinstance(value, dict) else {}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            self.log_message("ignoring unreadable control.json: %s", error)
            return {}

    def record(self, url):
        entry = {
            "method": self.command,
            "path": url.path,
            "queryString": url.query,
            "query": dict(parse_qsl(url.query, keep_blank_values=True)),
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "time": time.time(),
        }
        line = json.dumps(entry, ensure_ascii=False) + "\n"
        with self.server.log_lock:
            with open(os.path.join(self.server.state, "requests.jsonl"), "a", encoding="utf-8") as f:
                f.write(line)

    def fixture(self, relative):
        path = os.path.realpath(os.path.join(self.server.root, relative))
        if os.path.commonpath([path, self.server.root]) != self.server.root:
            raise FileNotFoundError(relative)
        with open(path, "rb") as f:
            return f.read()

    def accepts_gzip(self):
        for item in self.headers.get("Accept-Encoding", "").split(","):
            coding, _, params = item.strip().partition(";")
            if coding.strip().lower() in ("gzip", "x-gzip", "*"):
                quality = params.strip().lower()
                return not (quality.startswith("q=") and float(quality[2:] or 0) == 0)
        return False

    def send(self, status, body, content_type="application/json", extra=(), compress=True, chunked=False,
             truncate_at=None):
        if body and compress and self.accepts_gzip():
            body = gzip.compress(body)
            extra = list(extra) + [("Content-Encoding", "gzip")]
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            if chunked:
                self.send_header("Transfer-Encoding", "chunked")
            else:
                self.send_header("Content-Length", str(len(body)))
            self.send_header("Vary", "Accept-Encoding")
            for name, value in extra:
                self.send_header(name, value)
            self.end_headers()
            if self.command == "HEAD":
                return
            wire = body
            if chunked:
                step = 16384
                wire = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + step]), body[i:i + step])
                                for i in range(0, len(body), step)) + b"0\r\n\r\n"
            if isinstance(truncate_at, int) and 0 <= truncate_at < len(wire):
                self.wfile.write(wire[:truncate_at])
                self.wfile.flush()
                self.close_connection = True
                return
            self.wfile.write(wire)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout, cancellation)

    @staticmethod
    def loopback_target(target):
        if target.startswith("/") and not target.startswith("//"):
            return True
        try:
            return urlsplit(target).hostname == HOST
        except ValueError:
            return False

    def not_found(self, path):
        body = json.dumps({"error": True, "reason": "no fixture for %s" % path}).encode()
        self.send(404, body)

    # -- routes -----------------------------------------------------------------------------

    def do_GET(self):
        url = urlsplit(self.path)
        self.record(url)
        query = dict(parse_qsl(url.query, keep_blank_values=True))
        if url.path == "/v1/forecast":
            locations = len(query.get("latitude", "").split(","))
            self.answer(IMPERIAL if query.get("temperature_unit") == "fahrenheit" else METRIC, copies=locations)
        elif url.path == "/v1/search":
            self.answer(NO_RESULTS)
        elif url.path == "/v1/marine":
            self.answer(MARINE)
        elif url.path in OWM_ROUTES:
            self.answer(OWM_ROUTES[url.path])
        elif url.path in ALERT_ROUTES:
            self.answer(ALERT_ROUTES[url.path])
        elif url.path == METNO_PATH:
            self.answer(METNO)
        elif url.path == "/redirect" and self.loopback_target(query.get("to", "")):
            self.send(302, b"", "text/plain", [("Location", query["to"]), ("X-Fixture-Hop", "redirect")])
        else:
            self.not_found(url.path)

    def do_HEAD(self):
        self.do_GET()

    def answer(self, default, copies=1):
        control = self.control()
        delay = control.get("delaySeconds")
        if isinstance(delay, (int, float)) and delay > 0:
            time.sleep(delay)
        recorded = {}
        extra = []
        if control.get("retryAfter") is not None:
            extra.append(("Retry-After", str(control["retryAfter"])))
        headers = control.get("headers")
        if isinstance(headers, dict):
            extra.extend((str(name), str(value)) for name, value in headers.items())
        last_modified = control.get("lastModified")
        given = {name.lower() for name, _ in extra} | ({"last-modified"} if isinstance(last_modified, str) else set())
        if isinstance(last_modified, str):
            extra.append(("Last-Modified", last_modified))
            if self.headers.get("If-Modified-Since") == last_modified:
                self.send(304, b"", extra=extra)
                return
        if isinstance(control.get("body"), str):
            body = control["body"].encode("utf-8")
        else:
            relative = control.get("file") or default
            try:
                body = self.fixture(relative)
            except OSError:
                self.not_found(relative)
                return
            if relative.endswith(".wrapped.json"):
                recorded = json.loads(body)
                body = json.dumps(recorded["data"]).encode("utf-8")
                extra.extend((name, recorded["headers"][name]) for name in RECORDED_HEADERS
                             if name in recorded["headers"] and name.lower() not in given)
        status = int(control.get("status", recorded.get("status_code", 200)))
        if copies > 1 and 200 <= status < 300 and not isinstance(control.get("body"), str):
            body = b"[" + b",".join([body.strip()] * copies) + b"]"
        size = control.get("bodyBytes")
        if isinstance(size, int) and size >= 0:
            body = (body * (size // max(1, len(body)) + 1))[:size]
        self.send(status, body, extra=extra, compress=control.get("gzip", True) is not False,
                  chunked=control.get("chunked") is True, truncate_at=control.get("truncateAt"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True, help="the fixtures directory (Tests/Fixtures)")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1; 0 picks a free one")
    parser.add_argument("--state", required=True, help="directory for control.json and requests.jsonl")
    parser.add_argument("--keep-running", action="store_true",
                        help="ignore stdin (for use by hand, in the background); stop with SIGTERM or Ctrl-C")
    args = parser.parse_args()

    os.makedirs(args.state, exist_ok=True)
    server = FixtureServer(args.port, args.root, args.state)

    stop = threading.Event()

    def watch_stdin():
        # os.read, not sys.stdin: a daemon thread blocked in a buffered read aborts interpreter shutdown.
        try:
            while os.read(sys.stdin.fileno(), 4096):
                pass
        except OSError:
            pass
        stop.set()

    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    if not args.keep_running:
        threading.Thread(target=watch_stdin, daemon=True).start()
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()

    print("PORT %d" % server.server_address[1], flush=True)
    while not stop.wait(0.2):
        pass
    server.shutdown()
    server.server_close()


if __name__ == "__main__":
    main()
