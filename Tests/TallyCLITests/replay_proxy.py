"""A loopback HTTP proxy in front of a real `tally serve` that can replay an answer it captured.

Usage: replay_proxy.py PORT_FILE TARGET_URL CONTROL_FILE

Each request is forwarded to TARGET_URL with its Authorization, Content-Type and Tally-Nonce headers, and the
answer comes back with its Tally-Signature. The first answer to each "METHOD PATH" is captured. While CONTROL_FILE
exists, a GET is not forwarded: it gets the captured answer to the same path, body and Tally-Signature as the
server signed them then (for the nonce of that earlier request) — an attacker on the network replaying an older,
genuinely signed customer state.
"""
import os
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT_FILE, TARGET, CONTROL = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3]
captured = {}


class Proxy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        key = (self.command, self.path)
        if self.command == "GET" and os.path.exists(CONTROL) and key in captured:
            status, data, signature = captured[key]
        else:
            request = urllib.request.Request(TARGET + self.path, data=body, method=self.command)
            for name in ("Authorization", "Content-Type", "Tally-Nonce"):
                if self.headers.get(name):
                    request.add_header(name, self.headers[name])
            try:
                with urllib.request.urlopen(request, timeout=60) as answer:
                    status, data, signature = answer.status, answer.read(), answer.headers.get("Tally-Signature")
            except urllib.error.HTTPError as error:
                status, data, signature = error.code, error.read(), error.headers.get("Tally-Signature")
            captured.setdefault(key, (status, data, signature))
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        if signature:
            self.send_header("Tally-Signature", signature)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = forward
    do_POST = forward

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
with open(PORT_FILE + ".tmp", "w", encoding="utf-8") as out:
    out.write(str(server.server_address[1]))
os.rename(PORT_FILE + ".tmp", PORT_FILE)
server.serve_forever()
