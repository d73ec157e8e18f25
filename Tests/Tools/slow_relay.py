#!/usr/bin/env python3
"""A slow TCP relay for the tests: listens on 127.0.0.1 (a free port, printed as `PORT n`) and
forwards each connection to 127.0.0.1:UPSTREAM, at most CHUNK bytes at a time, each chunk
after DELAY seconds, both ways: a broker behind a slow uplink. Ends with its parent (stdin EOF)."""
import socket, sys, threading, time

upstream, delay, chunk = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])

def pump(source, sink):
    try:
        while True:
            data = source.recv(chunk)
            if not data:
                break
            time.sleep(delay)
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

def serve(listener):
    while True:
        client, _ = listener.accept()
        server = socket.create_connection(("127.0.0.1", upstream))
        for a, b in ((client, server), (server, client)):
            threading.Thread(target=pump, args=(a, b), daemon=True).start()

listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(8)
print("PORT", listener.getsockname()[1], flush=True)
threading.Thread(target=serve, args=(listener,), daemon=True).start()
sys.stdin.read()  # until the test ends
