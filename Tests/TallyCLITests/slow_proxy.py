"""A loopback HTTP proxy in front of a real `tally serve` that holds chosen answers back.

Usage: slow_proxy.py PORT_FILE TARGET_URL CONTROL_FILE

Each request is forwarded to TARGET_URL as is, and "METHOD PATH" appended to CONTROL_FILE.seen when it arrives. While CONTROL_FILE exists and holds "METHOD PATH SECONDS", a
request with that method and path gets the server's answer SECONDS after the server gave it: a slow network
for one customer's call, so a test can make an answer land after the engine moved on. While CONTROL_FILE.rewrite exists, each of its lines "FROM<TAB>TO" replaces
the bytes FROM by TO in every answer: a server that answers what `tally serve` does not (a newer one).
The Tally-Nonce request header and the Tally-Signature answer header pass through, and the first answer to each
"METHOD PATH" is captured: while CONTROL_FILE.replay exists, a GET is not forwarded but gets the captured answer to
its path, body and Tally-Signature as the server signed them then (for that earlier request's nonce) — an attacker
on the network replaying an older, genuinely signed customer state.
"""
import os
import sys
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT_FILE, TARGET, CONTROL = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3]
captured = {}


def held_back(method, path):
    try:
        with open(CONTROL, encoding="utf-8") as control:
            return control.read().split() == [method, path]
    except OSError:
        return False


class Proxy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        hold = held_back(self.command, self.path)
        with open(CONTROL + ".seen", "a", encoding="utf-8") as seen:
            seen.write(f"{self.command} {self.path}\n")
        key = (self.command, self.path)
        if self.command == "GET" and os.path.exists(CONTROL + ".replay") and key in captured:
            status, data, signature = captured[key]
        else:
            status, data, signature = self.ask_server(body)
            captured.setdefault(key, (status, data, signature))
        while hold and os.path.exists(CONTROL):
            time.sleep(0.02)
        try:
            with open(CONTROL + ".rewrite", encoding="utf-8") as rewrites:
                for line in rewrites.read().splitlines():
                    old, new = line.split("\t")
                    data = data.replace(old.encode(), new.encode())
        except OSError:
            pass
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        if signature:
            self.send_header("Tally-Signature", signature)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def ask_server(self, body):
        request = urllib.request.Request(TARGET + self.path, data=body, method=self.command)
        for name in ("Authorization", "Content-Type", "Tally-Nonce"):
            if self.headers.get(name):
                request.add_header(name, self.headers[name])
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, answer.read(), answer.headers.get("Tally-Signature")
        except urllib.error.HTTPError as error:
            return error.code, error.read(), error.headers.get("Tally-Signature")

    do_GET = forward
    do_POST = forward

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
with open(PORT_FILE + ".tmp", "w", encoding="utf-8") as out:
    out.write(str(server.server_address[1]))
os.rename(PORT_FILE + ".tmp", PORT_FILE)
server.serve_forever()
