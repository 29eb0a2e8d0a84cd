"""Drives Apple's AppStoreServerAPIClient through the sandbox's order, refund, consumption, extension and
app-account-token endpoints against `tally sandbox serve`, and prints what it saw, as JSON.

usage: apple_api_more.py BASE_URL KEY.p8 KEY_ID ISSUER_ID BUNDLE_ID ROOT.der IDS_JSON
IDS_JSON: {"order": ORDER_ID, "orderTx": TX, "customer": ANY_TX, "consumptionV2": TX, "consumptionV1": TX,
           "subscription": ORIGINAL_TX, "renewal": TX, "productId": PRODUCT, "massRequest": UUID}
Every signed payload is checked with Apple's SignedDataVerifier trusting only ROOT.der.
"""
import json
import sys
import uuid

import requests
import warnings

warnings.simplefilter("ignore", DeprecationWarning)  # V1 consumption is deprecated, and still served

from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
from appstoreserverlibrary.models.AccountTenure import AccountTenure
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
from appstoreserverlibrary.models.ConsumptionStatus import ConsumptionStatus
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.LifetimeDollarsPurchased import LifetimeDollarsPurchased
from appstoreserverlibrary.models.LifetimeDollarsRefunded import LifetimeDollarsRefunded
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.Platform import Platform
from appstoreserverlibrary.models.PlayTime import PlayTime
from appstoreserverlibrary.models.RefundPreference import RefundPreference
from appstoreserverlibrary.models.RefundPreferenceV1 import RefundPreferenceV1
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
from appstoreserverlibrary.models.UserStatus import UserStatus
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

base_url, key_path, key_id, issuer_id, bundle_id, root_path, ids_json = sys.argv[1:8]
ids = json.loads(ids_json)
with open(key_path, "rb") as f:
    key = f.read()
with open(root_path, "rb") as f:
    root = f.read()
verifier = SignedDataVerifier([root], False, Environment.SANDBOX, bundle_id)
client = AppStoreServerAPIClient(key, key_id, issuer_id, bundle_id, Environment.SANDBOX)
client._base_url = base_url  # the sandbox on loopback instead of Apple's host


def error_of(call):
    try:
        call()
        return {"ok": True}
    except APIException as error:
        return {"status": error.http_status_code, "code": error.raw_api_error}


def decode(jws):
    return verifier.verify_and_decode_signed_transaction(jws)


out = {}

# Look Up Order ID
found = client.look_up_order_id(ids["order"])
out["order"] = {"status": found.rawStatus, "ids": [decode(jws).transactionId for jws in found.signedTransactions or []]}
unknown = client.look_up_order_id("MZZZZZZZZZ")
out["unknownOrder"] = {"status": unknown.rawStatus, "hasArray": unknown.signedTransactions is not None}
out["badOrder"] = error_of(lambda: client.look_up_order_id("not-an-order"))

# Get Refund History v2, paged to the end
refunded, pages, revision = [], 0, None
while True:
    page = client.get_refund_history(ids["customer"], revision)
    pages += 1
    refunded += [{"id": decode(jws).transactionId, "revoked": decode(jws).revocationDate} for jws in page.signedTransactions]
    revision = page.revision
    if not page.hasMore or pages > 20:
        break
out["refunds"] = {"items": refunded, "pages": pages}
later = client.get_refund_history(ids["customer"], revision)
out["refundsAfterFinal"] = {"count": len(later.signedTransactions), "hasMore": later.hasMore}
out["refundsBadRevision"] = error_of(lambda: client.get_refund_history(ids["customer"], "nonsense"))

# Send Consumption Information v2 and v1
out["consumptionV2"] = error_of(lambda: client.send_consumption_information(ids["consumptionV2"], ConsumptionRequest(
    customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED,
    consumptionPercentage=75000, refundPreference=None)))
out["consumptionNoConsent"] = error_of(lambda: client.send_consumption_information(ids["consumptionV2"], ConsumptionRequest(
    customerConsented=False, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED)))
out["consumptionBadDelivery"] = error_of(lambda: client.send_consumption_information(ids["consumptionV2"], ConsumptionRequest(
    customerConsented=True, sampleContentProvided=False, rawDeliveryStatus="LOST_IN_THE_MAIL")))
out["consumptionPercentOnSubscription"] = error_of(lambda: client.send_consumption_information(ids["subscription"], ConsumptionRequest(
    customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED, consumptionPercentage=1000)))
out["consumptionUnknown"] = error_of(lambda: client.send_consumption_information("1", ConsumptionRequest(
    customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED)))


def v1(**overrides):
    fields = dict(customerConsented=True, consumptionStatus=ConsumptionStatus.NOT_CONSUMED, platform=Platform.APPLE,
                  sampleContentProvided=True, deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY,
                  appAccountToken="", accountTenure=AccountTenure.THIRTY_DAYS_TO_NINETY_DAYS,
                  playTime=PlayTime.ONE_DAY_TO_FOUR_DAYS, lifetimeDollarsRefunded=LifetimeDollarsRefunded.ZERO_DOLLARS,
                  lifetimeDollarsPurchased=LifetimeDollarsPurchased.FIFTY_DOLLARS_TO_NINETY_NINE_DOLLARS_AND_NINETY_NINE_CENTS,
                  userStatus=UserStatus.ACTIVE, refundPreference=RefundPreferenceV1.PREFER_GRANT)
    fields.update(overrides)
    return ConsumptionRequestV1(**fields)


out["consumptionV1"] = error_of(lambda: client.send_consumption_data(ids["consumptionV1"], v1()))
out["consumptionV1BadPlatform"] = error_of(lambda: client.send_consumption_data(ids["consumptionV1"], v1(platform=None, rawPlatform=7)))
out["consumptionV1BadToken"] = error_of(lambda: client.send_consumption_data(ids["consumptionV1"], v1(appAccountToken="nope")))

# Extend a Subscription Renewal Date
first_id = str(uuid.uuid4())
first = client.extend_subscription_renewal_date(ids["subscription"], ExtendRenewalDateRequest(
    extendByDays=7, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=first_id))
again = client.extend_subscription_renewal_date(ids["subscription"], ExtendRenewalDateRequest(
    extendByDays=7, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=first_id))
second = client.extend_subscription_renewal_date(ids["subscription"], ExtendRenewalDateRequest(
    extendByDays=3, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=str(uuid.uuid4())))
out["extend"] = {"original": first.originalTransactionId, "success": first.success, "effective": first.effectiveDate,
                 "webOrderLineItemId": first.webOrderLineItemId, "again": again.effectiveDate, "second": second.effectiveDate}
out["extendThird"] = error_of(lambda: client.extend_subscription_renewal_date(ids["subscription"], ExtendRenewalDateRequest(
    extendByDays=1, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier=str(uuid.uuid4()))))
out["extendTooMany"] = error_of(lambda: client.extend_subscription_renewal_date(ids["subscription"], ExtendRenewalDateRequest(
    extendByDays=91, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier=str(uuid.uuid4()))))
out["extendNoRequestId"] = error_of(lambda: client.extend_subscription_renewal_date(ids["subscription"], ExtendRenewalDateRequest(
    extendByDays=1, extendReasonCode=ExtendReasonCode.OTHER)))
out["extendUnknown"] = error_of(lambda: client.extend_subscription_renewal_date("1", ExtendRenewalDateRequest(
    extendByDays=1, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier=str(uuid.uuid4()))))
statuses = client.get_all_subscription_statuses(ids["subscription"])
last = statuses.data[0].lastTransactions[0]
out["extendedExpiry"] = {"transaction": decode(last.signedTransactionInfo).expiresDate,
                         "renewal": verifier.verify_and_decode_renewal_info(last.signedRenewalInfo).renewalDate}

# The mass extension and its status
mass = client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
    requestIdentifier=ids["massRequest"], extendByDays=5, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION,
    productId=ids["productId"]))
status = client.get_status_of_subscription_renewal_date_extensions(ids["massRequest"], ids["productId"])
out["mass"] = {"requestIdentifier": mass.requestIdentifier, "complete": status.complete, "completeDate": status.completeDate,
               "succeeded": status.succeededCount, "failed": status.failedCount}
out["massAgain"] = client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
    requestIdentifier=ids["massRequest"], extendByDays=5, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION,
    productId=ids["productId"])).requestIdentifier
out["massBadId"] = error_of(lambda: client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
    requestIdentifier="not-a-uuid", extendByDays=5, extendReasonCode=ExtendReasonCode.OTHER, productId=ids["productId"])))
out["massBadProduct"] = error_of(lambda: client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
    requestIdentifier=str(uuid.uuid4()), extendByDays=5, extendReasonCode=ExtendReasonCode.OTHER, productId="market.coins.10")))
out["massEmptyStorefronts"] = error_of(lambda: client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
    requestIdentifier=str(uuid.uuid4()), extendByDays=5, extendReasonCode=ExtendReasonCode.OTHER, productId=ids["productId"],
    storefrontCountryCodes=[])))
out["massStatusUnknown"] = error_of(lambda: client.get_status_of_subscription_renewal_date_extensions(str(uuid.uuid4()), ids["productId"]))

# Set App Account Token
token = str(uuid.uuid4())
out["setToken"] = error_of(lambda: client.set_app_account_token(ids["orderTx"], UpdateAppAccountTokenRequest(appAccountToken=token)))
out["token"] = {"sent": token, "seen": decode(client.get_transaction_info(ids["orderTx"]).signedTransactionInfo).appAccountToken}
subscription_token = str(uuid.uuid4())
out["setSubscriptionToken"] = error_of(lambda: client.set_app_account_token(ids["subscription"], UpdateAppAccountTokenRequest(appAccountToken=subscription_token)))
out["subscriptionToken"] = subscription_token
out["tokenNotUUID"] = error_of(lambda: client.set_app_account_token(ids["orderTx"], UpdateAppAccountTokenRequest(appAccountToken="nope")))
out["tokenNotOriginal"] = error_of(lambda: client.set_app_account_token(ids["renewal"], UpdateAppAccountTokenRequest(appAccountToken=token)))
out["tokenUnknown"] = error_of(lambda: client.set_app_account_token("1", UpdateAppAccountTokenRequest(appAccountToken=token)))

# Mass extension limited to a storefront nobody is in: complete, nobody extended or failed
elsewhere = str(uuid.uuid4())
client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
    requestIdentifier=elsewhere, extendByDays=5, extendReasonCode=ExtendReasonCode.OTHER, productId=ids["productId"],
    storefrontCountryCodes=["ZZZ"]))
status = client.get_status_of_subscription_renewal_date_extensions(elsewhere, ids["productId"])
out["massElsewhere"] = {"complete": status.complete, "succeeded": status.succeededCount, "failed": status.failedCount}


# Raw requests signed with the library's own token: malformed bodies are Apple's 400 without an error code
def raw(method, path, body):
    response = requests.request(method, base_url + path, data=body, headers=client._get_headers())
    try:
        code = response.json().get("errorCode")
    except ValueError:
        code = None
    return {"status": response.status_code, "code": code}


out["rawNotJSON"] = raw("PUT", "/inApps/v2/transactions/consumption/" + ids["consumptionV2"], b"{not json")
out["rawNoToken"] = raw("PUT", "/inApps/v1/transactions/" + ids["orderTx"] + "/appAccountToken", b"{}")
out["rawWrongMethod"] = raw("GET", "/inApps/v1/transactions/consumption/" + ids["consumptionV2"], None)
print(json.dumps(out))
