"""Offers bought in a real `tally sandbox`, signed by Apple's app-store-server-library (the oracle).

Usage: offer_purchases.py TALLY DATA_DIR  (DATA_DIR made by `tally sandbox init` with Examples/Market and
`tally sandbox api-key`). Prints one `ok …` line per case; exits 1 at the first case that does not hold.
"""
import datetime
import json
import subprocess
import sys
import uuid
from unittest import mock

from appstoreserverlibrary import jws_signature_creator
from appstoreserverlibrary.jws_signature_creator import (
    IntroductoryOfferEligibilitySignatureCreator,
    PromotionalOfferV2SignatureCreator,
)
from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator

TALLY, DATA = sys.argv[1], sys.argv[2]
PRODUCT, OFFER, BUNDLE = "market.pro.monthly", "pro_comeback", "com.example.market"
keys = json.load(open(f"{DATA}/api-keys.json"))
KEY_ID, ISSUER = keys[0]["keyId"], keys[0]["issuerId"]
P8 = open(f"{DATA}/api-keys/{KEY_ID}.p8", "rb").read()
v1 = PromotionalOfferSignatureCreator(P8, KEY_ID, BUNDLE)
v2 = PromotionalOfferV2SignatureCreator(P8, KEY_ID, ISSUER, BUNDLE)
eligibility = IntroductoryOfferEligibilitySignatureCreator(P8, KEY_ID, ISSUER, BUNDLE)


def tally(*words):
    run = subprocess.run([TALLY, "sandbox", *words, "--data", DATA], capture_output=True, text=True)
    return run.returncode, run.stdout, run.stderr


def buy(account, *options, product=PRODUCT):
    status, out, err = tally("buy", product, "--account", account, "--json", *options)
    try:
        return status, json.loads(out)
    except ValueError:
        raise SystemExit(f"buy printed no JSON (exit {status}): {out} {err}")


def check(condition, what, detail=""):
    if not condition:
        print(f"FAILED {what}: {detail}")
        sys.exit(1)
    print(f"ok {what}")


def v1_options(token, nonce=None, timestamp=None, product=PRODUCT, offer=OFFER, token_signed=None):
    nonce = nonce or uuid.uuid4()
    timestamp = timestamp or int(datetime.datetime.now().timestamp() * 1000)
    signed = token if token_signed is None else token_signed
    signature = v1.create_signature(product, offer, signed, nonce, timestamp)
    return ["--offer", OFFER if offer == OFFER else offer, "--key-id", KEY_ID, "--nonce", str(nonce),
            "--signature", signature, "--timestamp", str(timestamp), "--app-account-token", token]


# V1: Apple's signature buys the offer at its price; the transaction says so.
token = str(uuid.uuid4())
nonce = uuid.uuid4()
status, answer = buy("promo", *v1_options(token, nonce=nonce))
t = answer.get("transaction") or {}
check(status == 0 and t.get("offerType") == 2 and t.get("offerIdentifier") == OFFER and t.get("price") == 1990,
      "a V1 signature made by Apple's PromotionalOfferSignatureCreator buys pro_comeback at 1.99", answer)
check(t.get("offerDiscountType") == "PAY_AS_YOU_GO" and t.get("offerPeriod") == "P1M",
      "the transaction carries the offer's discount type and period", t)
promo_transaction = t["transactionId"]

# The same signature again: its nonce was used.
status, answer = buy("promo2", *v1_options(token, nonce=nonce))
check(status == 1 and answer.get("errorCode") == "invalidOfferSignature" and "nonce" in answer.get("error", ""),
      "a reused nonce is refused (invalidOfferSignature)", answer)

# Tampered: signed for another token, another product, or 25 hours ago.
status, answer = buy("promo3", *v1_options(str(uuid.uuid4()), token_signed=str(uuid.uuid4())))
check(status == 1 and answer.get("errorCode") == "invalidOfferSignature", "a signature for another token is refused", answer)
options = v1_options(token, product="market.pro.yearly")
status, answer = buy("promo3", *options, product="market.pro.yearly")
check(status == 2 and answer.get("errorCode") == "invalidOfferIdentifier",
      "an offer the product does not have is refused (invalidOfferIdentifier)", answer)
signature = v1.create_signature("market.pro.yearly", OFFER, token, uuid.uuid4(), int(datetime.datetime.now().timestamp() * 1000))
forged = v1_options(token)
forged[forged.index("--signature") + 1] = signature
status, answer = buy("promo3", *forged)
check(status == 1 and answer.get("errorCode") == "invalidOfferSignature", "a signature made for another product is refused", answer)
stale = int((datetime.datetime.now() - datetime.timedelta(hours=25)).timestamp() * 1000)
status, answer = buy("promo3", *v1_options(token, timestamp=stale))
check(status == 1 and answer.get("errorCode") == "invalidOfferSignature" and "24 hours" in answer.get("error", ""),
      "a signature older than 24 hours is refused", answer)

# V2: Apple's JWS buys it; reused, stale and tampered ones are refused.
jws = v2.create_signature(PRODUCT, OFFER, None)
status, answer = buy("jws", "--offer", OFFER, "--offer-jws", jws)
t = answer.get("transaction") or {}
check(status == 0 and t.get("offerType") == 2 and t.get("price") == 1990,
      "a V2 JWS made by Apple's PromotionalOfferV2SignatureCreator buys the offer", answer)
status, answer = buy("jws2", "--offer", OFFER, "--offer-jws", jws)
check(status == 1 and answer.get("errorCode") == "invalidOfferSignature", "a reused V2 JWS is refused", answer)
head, body, sig = v2.create_signature(PRODUCT, OFFER, None).split(".")
status, answer = buy("jws2", "--offer", OFFER, "--offer-jws", ".".join([head, body[:-2] + ("A" if body[-2] != "A" else "B") + body[-1], sig]))
check(status == 1 and answer.get("errorCode") == "invalidOfferSignature", "a V2 JWS with a changed claim is refused", answer)
past = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=25)
with mock.patch.object(jws_signature_creator.datetime, "datetime", wraps=datetime.datetime) as clock:
    clock.now.return_value = past
    old = v2.create_signature(PRODUCT, OFFER, None)
status, answer = buy("jws2", "--offer", OFFER, "--offer-jws", old)
check(status == 1 and answer.get("errorCode") == "invalidOfferSignature", "a V2 JWS issued 25 hours ago is refused", answer)
status, answer = buy("jws3", "--offer", OFFER, "--offer-jws", v2.create_signature(PRODUCT, OFFER, promo_transaction))
check(status == 1 and answer.get("errorCode") == "invalidOfferSignature" and "not the buying account" in answer.get("error", ""),
      "a V2 JWS naming another account's transaction is refused", answer)
status, answer = buy("promo", "--offer", OFFER, "--offer-jws", v2.create_signature("market.pro.yearly", OFFER, promo_transaction))
check(status == 1 and answer.get("errorCode") == "invalidOfferSignature", "a V2 JWS for another product is refused", answer)
status, answer = buy("jws2", "--offer", "other_offer", "--offer-jws", v2.create_signature(PRODUCT, OFFER, None))
check(status == 2 and answer.get("errorCode") == "invalidOfferIdentifier", "a V2 JWS for an offer the product lacks is refused", answer)

# Introductory offer eligibility: allow for an account that had one, deny for one that never did.
status, answer = buy("intro")
check(status == 0 and (answer.get("transaction") or {}).get("offerType") == 1, "a first purchase gets the free week", answer)
tally("auto-renew", PRODUCT, "off", "--account", "intro")
tally("advance", "40d")
status, answer = buy("intro")
t = answer.get("transaction") or {}
check(status == 0 and t.get("offerType") is None and t.get("price") == 4990, "a second purchase in the group pays", answer)
tally("auto-renew", PRODUCT, "off", "--account", "intro")
tally("advance", "40d")
status, answer = buy("intro", "--intro-eligibility", eligibility.create_signature(PRODUCT, True, "1"))
t = answer.get("transaction") or {}
check(status == 0 and t.get("offerType") == 1 and t.get("price") == 0,
      "an eligibility JWS of IntroductoryOfferEligibilitySignatureCreator grants the intro offer again", answer)
status, answer = buy("fresh", "--intro-eligibility", eligibility.create_signature(PRODUCT, False, "1"))
t = answer.get("transaction") or {}
check(status == 0 and t.get("offerType") is None and t.get("price") == 4990, "an eligibility JWS that denies it is followed", answer)

# Win-back: only for a lapsed subscriber, once.
status, answer = buy("fresh", "--win-back", "pro_winback")
check(status == 1 and answer.get("errorCode") == "ineligibleForOffer", "a subscriber in force gets no win-back offer", answer)
tally("auto-renew", PRODUCT, "off", "--account", "fresh")
tally("advance", "40d")
status, answer = buy("fresh", "--win-back", "pro_winback")
t = answer.get("transaction") or {}
check(status == 0 and t.get("offerType") == 4 and t.get("offerIdentifier") == "pro_winback" and t.get("price") == 0,
      "a lapsed subscriber buys with the win-back offer (offerType 4)", answer)
tally("auto-renew", PRODUCT, "off", "--account", "fresh")
tally("advance", "40d")
status, answer = buy("fresh", "--win-back", "pro_winback")
check(status == 1 and answer.get("errorCode") == "ineligibleForOffer", "a win-back offer is redeemed once", answer)

# Renewals after the promotional offer's three periods go back to the standard price.
status, out, _ = tally("history", "--account", "promo", "--json")
renewals = [e["transaction"] for e in json.loads(out)["transactions"] if e["transaction"]["productId"] == PRODUCT]
prices = [(t.get("price"), t.get("offerType")) for t in renewals]
check(prices[:3] == [(1990, 2)] * 3 and all(p == (4990, None) for p in prices[3:]) and len(prices) > 3,
      "three periods at the offer price, then the standard price", prices)

# Offer codes.
status, out, _ = tally("offer-code", "create", "--offer", "pro_newsletter", "--count", "2", "--json")
codes = [c["code"] for c in json.loads(out)]
check(status == 0 and len(codes) == 2 and len(set(codes)) == 2, "two one-use codes are made", out)
status, out, _ = tally("offer-code", "redeem", codes[0], "--account", "newcomer", "--json")
t = json.loads(out)
check(status == 0 and t.get("offerType") == 3 and t.get("offerIdentifier") == "pro_newsletter" and t.get("price") == 0,
      "a code redeemed by a new customer subscribes with the offer (offerType 3)", t)
status, out, err = tally("offer-code", "redeem", codes[0], "--account", "other", "--json")
check(status == 1 and json.loads(out).get("errorCode") == "ineligibleForOffer", "a code works once", out + err)
status, out, err = tally("offer-code", "redeem", "NOSUCHCODE", "--account", "other", "--json")
check(status == 2, "an unknown code is refused", out + err)
tally("set", "notification-url", "http://127.0.0.1:9/notifications")  # recorded, not sent: nothing serves
status, out, err = tally("offer-code", "redeem", codes[1], "--account", "promo", "--json")
check(status == 0, "a subscriber redeems a code", out + err)
status, out, _ = tally("history", "--account", "promo", "--json")
check(any(e["kind"] == "offerRedeemed" for e in json.loads(out)["events"]), "the redemption is an offerRedeemed event", out[-400:])
status, out, _ = tally("notifications", "--json")
check("OFFER_REDEEMED" in out, "whose notification is OFFER_REDEEMED", out[-400:])
tally("advance", "31d")
status, out, _ = tally("history", "--account", "promo", "--json")
latest = [e["transaction"] for e in json.loads(out)["transactions"]][-1]
check(latest.get("offerType") == 3 and latest.get("price") == 0 and latest.get("offerIdentifier") == "pro_newsletter",
      "the subscriber's next renewal is the code's free month", latest)
print("all offer cases hold")
