#!/usr/bin/env python3
"""A broken gpsd for tests: greets like gpsd, then sends one line longer than libgps's buffer.

Usage: fake_gpsd.py --fd N [--line-bytes 40960 | --reports FILE]

Serves the listening TCP socket inherited as descriptor N (the test binds 127.0.0.1:0 and
listens before starting this script, so clients never race its start). For every connection:
writes gpsd's VERSION banner, reads the client's ?WATCH (at most 2 s), writes one
`{"class":"JUNK",...}` line of --line-bytes bytes, closes. gps_read drops a connection on a line
over its buffer (gpsd's largest JSON report is 9,216 bytes; PITFALLS). Prints
`connection N` to stdout (flushed) for each accepted connection. Runs until killed; it gets
SIGTERM when its parent (the test process) dies. With --reports, FILE's bytes are sent as they
are instead of the long line, and the connection stays open until the client closes it.
"""
import argparse
import ctypes
import signal
import socket
import sys

VERSION = (b'{"class":"VERSION","release":"3.22","rev":"3.22",'
           b'"proto_major":3,"proto_minor":14}\r\n')


def junk_line(size):
    head = b'{"class":"JUNK","data":"'
    tail = b'"}\r\n'
    return head + b"x" * max(0, size - len(head) - len(tail)) + tail


def serve(listener, size, reports):
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
            client.sendall(junk_line(size) if reports is None else reports)
            if reports is None:
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
    parser.add_argument("--reports")
    arguments = parser.parse_args()
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    listener = socket.socket(fileno=arguments.fd)
    reports = None
    if arguments.reports is not None:
        with open(arguments.reports, "rb") as f:
            reports = f.read()
    serve(listener, arguments.line_bytes, reports)


if __name__ == "__main__":
    main()
