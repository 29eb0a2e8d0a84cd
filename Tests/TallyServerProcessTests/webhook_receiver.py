"""A webhook receiver for the process tests: checks each POST's Standard Webhooks signature with Python's own
hmac (independent of the server's code) and its timestamp against five minutes, fails the first N attempts
with a 500 (or never answers with --hang), then answers 200; every attempt becomes one JSON line of the log.

usage: webhook_receiver.py SECRET LOG [--fail-first N] [--hang] [--hang-user ID]
--hang-user ID: never answer the events of customer ID (others are answered).
--redirect-first N: answer the first N attempts 307 to /followed (a sender must not follow).
Prints "listening on PORT" once it accepts connections.
"""
import base64
import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

secret, log_path = sys.argv[1], sys.argv[2]
fail_first = int(sys.argv[sys.argv.index("--fail-first") + 1]) if "--fail-first" in sys.argv else 0
hang = "--hang" in sys.argv
redirect_first = int(sys.argv[sys.argv.index("--redirect-first") + 1]) if "--redirect-first" in sys.argv else 0
hang_user = sys.argv[sys.argv.index("--hang-user") + 1] if "--hang-user" in sys.argv else None
key = base64.b64decode(secret[6:]) if secret.startswith("whsec_") else secret.encode()
lock = threading.Lock()
attempts = 0


def verify(event_id, timestamp, signature, body):
    """Whether one of the header's `v1,` signatures is HMAC-SHA256(key, "id.timestamp.body")."""
    expected = base64.b64encode(hmac.new(key, f"{event_id}.{timestamp}.".encode() + body, hashlib.sha256).digest())
    for part in signature.split(" "):
        version, _, value = part.partition(",")
        if version == "v1" and hmac.compare_digest(value.encode(), expected):
            return True
    return False


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        global attempts
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        event_id = self.headers.get("Tally-Webhook-Id", "")
        timestamp = self.headers.get("Tally-Webhook-Timestamp", "")
        signature = self.headers.get("Tally-Webhook-Signature", "")
        fresh = timestamp.isdigit() and abs(time.time() - int(timestamp)) <= 300
        with lock:
            attempts += 1
            failing = attempts <= fail_first
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = None
        if hang or (hang_user is not None and isinstance(parsed, dict) and parsed.get("appUserId") == hang_user):
            with lock:
                with open(log_path, "a") as log:
                    log.write(json.dumps({"id": event_id, "hung": True, "event": parsed}) + "\n")
            time.sleep(3600)
            return
        status = 500 if failing else 200
        with lock:
            if attempts <= redirect_first:
                status = 307
        line = {"id": event_id, "timestamp": timestamp, "valid": verify(event_id, timestamp, signature, body),
                "fresh": fresh, "status": status, "path": self.path, "contentType": self.headers.get("Content-Type"),
                "body": body.decode("utf-8", "replace"), "event": parsed}
        with lock:
            with open(log_path, "a") as log:
                log.write(json.dumps(line) + "\n")
        self.send_response(status)
        if status == 307:
            self.send_header("Location", "/followed")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(f"listening on {server.server_address[1]}", flush=True)
server.serve_forever()
