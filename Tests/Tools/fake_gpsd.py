#!/usr/bin/env python3
"""A broken or scripted gpsd for tests.

Usage: fake_gpsd.py --fd N [--line-bytes 40960 | --script PATH | --line TEXT ... [--hold-connection K] | --reports FILE | --tpv JSON --interval S]

Serves the listening TCP socket inherited as descriptor N (the test binds 127.0.0.1:0 and
listens before starting this script, so clients never race its start). Prints `connection N`
to stdout (flushed) for each accepted connection. Runs until killed; it gets SIGTERM when its
parent (the test process) dies.

Without --script, every connection gets gpsd's VERSION banner, the client's ?WATCH is read (at
most 2 s), then one `{"class":"JUNK",...}` line of --line-bytes bytes is written and the
connection closed. gps_read drops a connection on a line over its buffer (gpsd's largest JSON
report is 9,216 bytes; PITFALLS).

With --script, each connection (served on a thread of its own) plays the JSON file PATH, read
when the connection is accepted: {"banner": true, "steps": [STEP, ...]}, then closes. A STEP is
  {"line": TEXT}                 TEXT and CR LF; every `{now}` becomes the current UTC time
  {"fix": [LAT, LON]}            a 3D TPV (eph 5 m, time now) that a real receiver could send;
                                 prints `fix LAT LON EPOCH` (the test's record of what gpsd reported)
  {"junk": BYTES}                one JSON line of BYTES bytes
  {"raw": TEXT}                  TEXT as it is (no line end: half a line)
  {"pause": SECONDS}
  {"repeat": [STEP, ...], "times": N}   N times; without "times", until the connection ends
  {"hold": true}                 silence until the client closes
A step with "fault": true also prints `fault N` (N counting from 1 over all connections) as it
starts: the test counts the faults it injected, and can await the Nth.
A connection whose script file has changed since it was accepted is closed at its next step (a
repeat or a hold checks every 50 ms): the test ends a fault by writing the next script, and the
client's reconnection plays it. Prints `closed N` when connection N ends.

Other modes (one connection at a time, printing `connection N` each):
  --line TEXT (repeatable)  each TEXT as one line after the banner, `{time}` replaced by a new
                            second each time (a new epoch per line), then close; connection
                            number K (--hold-connection K) instead repeats its last line every
                            0.1 s until SIGUSR1 (at most 120 s), prints `held K`, then closes
  --reports FILE            FILE's bytes as they are; the connection stays open until the
                            client closes it
In these two modes every line the client sends is printed as `received N LINE`, and `closed N`
when connection N ends.
  --tpv JSON --interval S   the line JSON every S seconds until the client closes (a stationary
                            receiver); `tpv N` per line sent
"""
import argparse
import ctypes
import datetime
import json
import os
import select
import signal
import socket
import threading
import time

VERSION = (b'{"class":"VERSION","release":"3.22","rev":"3.22",'
           b'"proto_major":3,"proto_minor":14}\r\n')
PRINT = threading.Lock()
FAULTS = [0]
release_held = False
epoch = 0


def say(text):
    with PRINT:
        print(text, flush=True)


def on_usr1(_signum, _frame):
    global release_held
    release_held = True


def junk_line(size):
    head = b'{"class":"JUNK","data":"'
    tail = b'"}\r\n'
    return head + b"x" * max(0, size - len(head) - len(tail)) + tail


def repeat_tpv(listener, tpv, interval):
    count = 0
    while True:
        client, _ = listener.accept()
        count += 1
        print(f"connection {count}", flush=True)
        sent = 0
        try:
            client.sendall(VERSION)
            client.settimeout(interval)
            while True:
                client.sendall(tpv.encode() + b"\r\n")
                sent += 1
                print(f"tpv {sent}", flush=True)
                try:
                    if client.recv(4096) == b"":
                        break  # the client closed
                except socket.timeout:
                    pass
        except OSError:
            pass
        finally:
            client.close()




def scripted(text):
    global epoch
    stamp = "2026-12-01T%02d:%02d:%02d.000Z" % (12 + epoch // 3600, epoch // 60 % 60, epoch % 60)
    epoch += 1
    return text.replace("{time}", stamp).encode() + b"\r\n"


def serve(listener, arguments):
    global release_held
    count = 0
    while True:
        client, _ = listener.accept()
        count += 1
        print(f"connection {count}", flush=True)
        try:
            client.sendall(VERSION)
            client.settimeout(2)
            try:
                received(count, client.recv(4096))  # ?WATCH={...}
            except socket.timeout:
                pass
            if arguments.reports is not None:
                client.sendall(arguments.reports)
            elif not arguments.line:
                client.sendall(junk_line(arguments.line_bytes))
            for text in arguments.line:
                client.sendall(scripted(text))
            if count == arguments.hold_connection and arguments.line:
                release_held = False
                ends = time.monotonic() + 120
                while not release_held and time.monotonic() < ends:
                    time.sleep(0.1)
                    client.sendall(scripted(arguments.line[-1]))
                print(f"held {count}", flush=True)
            if arguments.reports is None:
                client.shutdown(socket.SHUT_WR)
            client.settimeout(None)
            # Read what the client still sends until it closes, so close() sends FIN, not RST.
            while received(count, client.recv(4096)):
                pass
        except OSError:
            pass
        finally:
            client.close()
            print(f"closed {count}", flush=True)


def received(count, data):
    """Prints `received N LINE` for each line the client sent on connection N; returns data."""
    for line in data.decode("utf-8", "replace").splitlines():
        print(f"received {count} {line}", flush=True)
    return data


def now_text():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def serve_junk(listener, size):
    count = 0
    while True:
        client, _ = listener.accept()
        count += 1
        say(f"connection {count}")
        try:
            client.sendall(VERSION)
            client.settimeout(2)
            try:
                client.recv(4096)  # ?WATCH={...}
            except socket.timeout:
                pass
            client.sendall(junk_line(size))
            client.shutdown(socket.SHUT_WR)
            # Read what the client still sends until it closes, so close() sends FIN, not RST.
            while client.recv(4096):
                pass
        except OSError:
            pass
        finally:
            client.close()


class Ended(Exception):
    """The client closed, or the script changed."""


class Connection:
    def __init__(self, client, path):
        self.client = client
        self.path = path
        self.script = self.read()

    def read(self):
        try:
            with open(self.path, "rb") as f:
                return f.read()
        except OSError:
            return b""

    def check(self, wait=0.0):
        """Raises Ended when the client has closed or the script changed; reads what it sent."""
        if self.read() != self.script:
            raise Ended()
        readable, _, _ = select.select([self.client], [], [], wait)
        if readable and not self.client.recv(65536):
            raise Ended()

    def send(self, data):
        self.check()
        try:
            self.client.sendall(data)
        except OSError:
            raise Ended()

    def pause(self, seconds):
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            self.check(min(left, 0.05))

    def play(self, steps):
        for step in steps:
            if step.get("fault"):
                with PRINT:
                    FAULTS[0] += 1
                    print(f"fault {FAULTS[0]}", flush=True)
            if "line" in step:
                self.send(step["line"].replace("{now}", now_text()).encode("utf-8") + b"\r\n")
            elif "fix" in step:
                lat, lon = step["fix"]
                tpv = {"class": "TPV", "device": "/dev/ttyFAKE0", "mode": 3, "time": now_text(),
                       "lat": lat, "lon": lon, "alt": 500.0, "eph": 5.0, "epx": 3.0, "epy": 3.0}
                # No blanks: libgps finds the class by the exact text `"class":"TPV"`.
                self.send(json.dumps(tpv, separators=(",", ":")).encode("ascii") + b"\r\n")
                say(f"fix {lat!r} {lon!r} {time.time():.3f}")
            elif "junk" in step:
                self.send(junk_line(int(step["junk"])))
            elif "raw" in step:
                self.send(step["raw"].encode("utf-8"))
            elif "pause" in step:
                self.pause(float(step["pause"]))
            elif "repeat" in step:
                times = step.get("times")
                count = 0
                while times is None or count < times:
                    self.play(step["repeat"])
                    count += 1
                    self.check()
            elif step.get("hold"):
                while True:
                    self.check(0.05)


def serve_script(listener, path):
    count = 0
    while True:
        client, _ = listener.accept()
        count += 1
        say(f"connection {count}")
        threading.Thread(target=handle, args=(client, path, count), daemon=True).start()


def handle(client, path, number):
    connection = Connection(client, path)
    try:
        script = json.loads(connection.script or b"{}")
        if script.get("banner", True):
            connection.send(VERSION)
        connection.play(script.get("steps", []))
        client.shutdown(socket.SHUT_WR)
        client.settimeout(1)
        while client.recv(4096):  # until the client closes: FIN, not RST
            pass
    except (Ended, OSError, ValueError):
        pass
    finally:
        client.close()
        say(f"closed {number}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fd", type=int, required=True)
    parser.add_argument("--line-bytes", type=int, default=40960)
    parser.add_argument("--script")
    parser.add_argument("--line", action="append", default=[])
    parser.add_argument("--hold-connection", type=int, default=0)
    parser.add_argument("--tpv")
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--reports")
    arguments = parser.parse_args()
    if arguments.script:
        # PR_SET_PDEATHSIG fires when the *thread* that spawned this process ends (a Swift
        # concurrency thread the pool retires), not the test process: a long scenario lost its
        # gpsd that way. Scripted gpsds end when the test process does, seen from here.
        parent = os.getppid()

        def watch_parent():
            while os.getppid() == parent:
                time.sleep(1)
            os._exit(0)

        threading.Thread(target=watch_parent, daemon=True).start()
    else:
        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    listener = socket.socket(fileno=arguments.fd)
    signal.signal(signal.SIGUSR1, on_usr1)
    if arguments.reports is not None:
        with open(arguments.reports, "rb") as f:
            arguments.reports = f.read()
    if arguments.script:
        serve_script(listener, arguments.script)
    elif arguments.tpv:
        repeat_tpv(listener, arguments.tpv, arguments.interval)
    elif arguments.line or arguments.reports is not None:
        serve(listener, arguments)
    else:
        serve_junk(listener, arguments.line_bytes)


if __name__ == "__main__":
    main()
