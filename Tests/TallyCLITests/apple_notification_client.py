"""Drives Apple's AppStoreServerAPIClient through the notification endpoints of `tally sandbox serve` and prints
what it saw, as JSON: Get Notification History (paged to the end, filtered by type, by transaction, failures
only, and a refused filter pair), Request a Test Notification and Get Test Notification Status.

usage: apple_notification_client.py BASE_URL KEY.p8 KEY_ID ISSUER_ID BUNDLE_ID ROOT.der START_MS END_MS TX
Every signed payload is checked with Apple's SignedDataVerifier trusting only ROOT.der.
"""
import json
import sys
import time

from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

base_url, key_path, key_id, issuer_id, bundle_id, root_path, start_ms, end_ms, tx = sys.argv[1:10]
with open(key_path, "rb") as f:
    key = f.read()
with open(root_path, "rb") as f:
    root = f.read()
verifier = SignedDataVerifier([root], False, Environment.SANDBOX, bundle_id)
client = AppStoreServerAPIClient(key, key_id, issuer_id, bundle_id, Environment.SANDBOX)
client._base_url = base_url  # the sandbox on loopback instead of Apple's host


def item(signed_payload, attempts):
    payload = verifier.verify_and_decode_notification(signed_payload)
    return {"uuid": payload.notificationUUID, "type": payload.rawNotificationType, "subtype": payload.rawSubtype,
            "signedDate": payload.signedDate,
            "attempts": [[a.attemptDate, a.rawSendAttemptResult] for a in (attempts or [])]}


def walk(**filters):
    request = NotificationHistoryRequest(startDate=int(start_ms), endDate=int(end_ms), **filters)
    items, pages, token = [], 0, None
    while True:
        response = client.get_notification_history(token, request)
        pages += 1
        items += [item(i.signedPayload, i.sendAttempts) for i in response.notificationHistory]
        token = response.paginationToken
        if not response.hasMore or pages > 100:
            return {"items": items, "pages": pages}


def error_of(call):
    try:
        call()
        return {"ok": True}
    except APIException as error:
        return {"status": error.http_status_code, "code": error.raw_api_error}


out = {"all": walk(), "renewals": walk(notificationType=NotificationTypeV2.DID_RENEW),
       "customer": walk(transactionId=tx), "failures": walk(onlyFailures=True)}
out["bothFilters"] = error_of(lambda: client.get_notification_history(None, NotificationHistoryRequest(
    startDate=int(start_ms), endDate=int(end_ms), transactionId=tx, notificationType=NotificationTypeV2.DID_RENEW)))
out["tooEarly"] = error_of(lambda: client.get_notification_history(None, NotificationHistoryRequest(
    startDate=int(end_ms) - 400 * 86_400_000, endDate=int(end_ms))))
out["unknownTest"] = error_of(lambda: client.get_test_notification_status("no-such-token"))
token = client.request_test_notification().testNotificationToken
out["testToken"] = token
deadline = time.time() + 30
while True:
    try:
        status = client.get_test_notification_status(token)
        out["test"] = item(status.signedPayload, status.sendAttempts)
        break
    except APIException as error:
        if error.raw_api_error != 4040008 or time.time() > deadline:
            out["test"] = {"status": error.http_status_code, "code": error.raw_api_error}
            break
        time.sleep(0.2)
print(json.dumps(out))
