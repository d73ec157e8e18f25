#!/usr/bin/env python3
"""A broken gpsd for tests: greets like gpsd, then sends scripted lines and closes.

Usage: fake_gpsd.py --fd N [--line-bytes 40960 | --reports FILE] [--line TEXT ...] [--hold-connection K]
       fake_gpsd.py --fd N --tpv JSON --interval SECONDS

Serves the listening TCP socket inherited as descriptor N (the test binds 127.0.0.1:0 and
listens before starting this script, so clients never race its start). For every connection:
writes gpsd's VERSION banner, reads the client's ?WATCH (at most 2 s), then writes

- without --line: one `{"class":"JUNK",...}` line of --line-bytes bytes. gps_read drops a
  connection on a line over its buffer (gpsd's largest JSON report is 9,216 bytes; PITFALLS);
- with --line (repeatable): each TEXT as one line, `{time}` replaced by a new second each time
  (2026-12-01T12:00:00.000Z, then :01, ...: a new epoch per line).

and closes. Connection number K (--hold-connection) instead repeats its last line every 0.1 s
until the script gets SIGUSR1 (at most 120 s), then closes: a gpsd that keeps sending fixes.

Prints `connection N` to stdout (flushed) for each accepted connection, `held N` when a held
connection ends. Runs until killed; it gets SIGTERM when its parent (the test process) dies.

With --tpv, each connection instead gets the line JSON every --interval seconds (a stationary
receiver), one connection at a time, until the client closes; `tpv N` is printed per line sent.

With --reports, FILE's bytes are sent as they are instead of the long line, and the connection
stays open until the client closes it.
"""
import argparse
import ctypes
import signal
import socket
import time

VERSION = (b'{"class":"VERSION","release":"3.22","rev":"3.22",'
           b'"proto_major":3,"proto_minor":14}\r\n')

release_held = False
epoch = 0


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
                client.recv(4096)  # ?WATCH={...}
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
            while client.recv(4096):
                pass
        except OSError:
            pass
        finally:
            client.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fd", type=int, required=True)
    parser.add_argument("--line-bytes", type=int, default=40960)
    parser.add_argument("--line", action="append", default=[])
    parser.add_argument("--hold-connection", type=int, default=0)
    parser.add_argument("--tpv")
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--reports")
    arguments = parser.parse_args()
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    signal.signal(signal.SIGUSR1, on_usr1)
    listener = socket.socket(fileno=arguments.fd)
    if arguments.reports is not None:
        with open(arguments.reports, "rb") as f:
            arguments.reports = f.read()
    if arguments.tpv:
        repeat_tpv(listener, arguments.tpv, arguments.interval)
    else:
        serve(listener, arguments)


if __name__ == "__main__":
    main()
