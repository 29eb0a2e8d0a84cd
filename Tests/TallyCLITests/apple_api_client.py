"""Drives Apple's AppStoreServerAPIClient against `tally sandbox serve` and prints what it saw, as JSON.

usage: apple_api_client.py BASE_URL KEY.p8 KEY_ID ISSUER_ID BUNDLE_ID ROOT.der COIN_TX SUBSCRIPTION_TX [burst]
Every signed payload is checked with Apple's SignedDataVerifier trusting only ROOT.der.
"""
import json
import sys

from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient, GetTransactionHistoryVersion
from appstoreserverlibrary.models.Environment import Environment


from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, ProductType, TransactionHistoryRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

base_url, key_path, key_id, issuer_id, bundle_id, root_path, coin_tx, sub_tx = sys.argv[1:9]
mode = sys.argv[9] if len(sys.argv) > 9 else "all"
with open(key_path, "rb") as f:
    key = f.read()
with open(root_path, "rb") as f:
    root = f.read()
verifier = SignedDataVerifier([root], False, Environment.SANDBOX, bundle_id)


def client_with(signing_key):
    client = AppStoreServerAPIClient(signing_key, key_id, issuer_id, bundle_id, Environment.SANDBOX)
    client._base_url = base_url  # the sandbox on loopback instead of Apple's host
    return client


client = client_with(key)


def error_of(call):
    try:
        call()
        return {"ok": True}
    except APIException as error:
        return {"status": error.http_status_code, "code": error.raw_api_error}


def walk(version, request, any_id=coin_tx):
    ids, pages, revision = [], 0, None
    while True:
        response = client.get_transaction_history(any_id, revision, request, version)
        pages += 1
        ids += [verifier.verify_and_decode_signed_transaction(jws).transactionId for jws in response.signedTransactions]
        revision = response.revision
        if not response.hasMore or pages > 100:
            return {"ids": ids, "pages": pages, "revision": revision, "environment": response.rawEnvironment,
                    "bundleId": response.bundleId}


out = {}
if mode == "burst":
    out["burst"] = [error_of(lambda: client.get_transaction_info(coin_tx)) for _ in range(12)]
    print(json.dumps(out))
    sys.exit(0)

info = client.get_transaction_info(coin_tx)
out["info"] = verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo).transactionId
out["all"] = walk(GetTransactionHistoryVersion.V2, TransactionHistoryRequest(sort=Order.ASCENDING))
out["descending"] = walk(GetTransactionHistoryVersion.V2, TransactionHistoryRequest(sort=Order.DESCENDING))
out["v1"] = walk(GetTransactionHistoryVersion.V1, TransactionHistoryRequest())
out["consumables"] = walk(GetTransactionHistoryVersion.V2,
                          TransactionHistoryRequest(productTypes=[ProductType.CONSUMABLE], revoked=False))
out["revoked"] = walk(GetTransactionHistoryVersion.V2, TransactionHistoryRequest(revoked=True))
after = client.get_transaction_history(coin_tx, out["all"]["revision"], TransactionHistoryRequest(sort=Order.ASCENDING),
                                       GetTransactionHistoryVersion.V2)
out["afterFinalRevision"] = {"count": len(after.signedTransactions), "hasMore": after.hasMore}
statuses = client.get_all_subscription_statuses(sub_tx)
out["statuses"] = [
    {"group": item.subscriptionGroupIdentifier,
     "last": [{"status": last.rawStatus, "original": last.originalTransactionId,
               "transaction": verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo).transactionId,
               "renewalProduct": verifier.verify_and_decode_renewal_info(last.signedRenewalInfo).autoRenewProductId}
              for last in item.lastTransactions]}
    for item in statuses.data]
out["expiredOnly"] = len(client.get_all_subscription_statuses(sub_tx, [Status.EXPIRED]).data)
out["notFound"] = error_of(lambda: client.get_transaction_info("9999999999999"))
out["invalidId"] = error_of(lambda: client.get_transaction_info("not-a-number"))
out["badRevision"] = error_of(lambda: client.get_transaction_history(coin_tx, "bm9wZQ==", TransactionHistoryRequest(),
                                                                     GetTransactionHistoryVersion.V2))
other = ec.generate_private_key(ec.SECP256R1()).private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
out["wrongKey"] = error_of(lambda: client_with(other).get_transaction_info(coin_tx))
print(json.dumps(out))
