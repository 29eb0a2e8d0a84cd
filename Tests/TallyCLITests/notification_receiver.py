"""A notification receiver for tests: answers the first FAILS posts 500, then 200 (after DELAY seconds each),
and logs each post as a JSON line: the answer, the Content-Type, the notification as decoded by Apple's
SignedDataVerifier trusting only ROOT.der (or its error), and the original transaction id of its transaction.
With FAIL_TYPE, only notifications of that notificationType count toward FAILS; every other one is answered 200
(a test's marker notifications).

usage: notification_receiver.py PORT_FILE LOG ROOT.der BUNDLE_ID FAILS [DELAY [FAIL_TYPE]]
"""
import base64
import http.server
import json
import sys
import threading
import time

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

port_file, log_path, root_path, bundle_id, fails = sys.argv[1:6]
delay = float(sys.argv[6]) if len(sys.argv) > 6 else 0.0
fail_type = sys.argv[7] if len(sys.argv) > 7 else None
with open(root_path, "rb") as f:
    verifier = SignedDataVerifier([f.read()], False, Environment.SANDBOX, bundle_id)
lock = threading.Lock()
count = [0]


def claims(jws):
    part = jws.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        entry = {"contentType": self.headers.get("Content-Type")}
        try:
            signed = json.loads(body)["signedPayload"]
            payload = verifier.verify_and_decode_notification(signed)
            entry.update(verified=True, uuid=payload.notificationUUID, type=payload.rawNotificationType,
                         subtype=payload.rawSubtype, signedDate=payload.signedDate)
            info = claims(signed)["data"].get("signedTransactionInfo")
            entry["originalTransactionId"] = claims(info)["originalTransactionId"] if info else None
        except Exception as error:  # logged, and answered as received: the test judges it
            entry.update(verified=False, error=repr(error))
        counted = fail_type is None or entry.get("type") == fail_type
        with lock:
            if counted:
                count[0] += 1
            n = count[0]
        code = 500 if counted and n <= int(fails) else 200
        entry.update(n=n, code=code)
        time.sleep(delay)
        self.send_response(code)
        self.send_header("Content-Length", "0")
        self.end_headers()
        self.wfile.flush()
        # Logged once answered: a line means the sender got this answer (or could have).
        with lock, open(log_path, "a") as log:
            log.write(json.dumps(entry) + "\n")

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
import os
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
