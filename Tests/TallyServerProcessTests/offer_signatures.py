"""Checks the offer signatures `tally serve` made, with the documented algorithm and PyJWT (as Apple's
library encodes them). Usage:
  offer_signatures.py keygen KEY.pem
  offer_signatures.py promotional KEY.pem BUNDLE KEYID ISSUER PRODUCT OFFER TOKEN|- TRANSACTION|- ANSWER.json
  offer_signatures.py eligibility KEY.pem BUNDLE KEYID ISSUER PRODUCT ALLOW(true|false) TRANSACTION ANSWER.json
Exit 0 when every check holds (and every tampered form fails), 1 otherwise."""
import base64, json, re, sys
import jwt
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

failures = []

def check(condition, message):
    if not condition:
        failures.append(message)

def public_key(path):
    with open(path, "rb") as f:
        return serialization.load_pem_private_key(f.read(), password=None).public_key()

def v1_verifies(key, message, signature):
    try:
        key.verify(signature, message.encode("utf-8"), ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False

def decode(token, key, audience):
    return jwt.decode(token, key, algorithms=["ES256"], audience=audience, options={"require": ["iat", "aud", "iss"]})

def tampered_fails(token, key, audience, claim, value):
    header, payload, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims[claim] = value
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    try:
        decode(".".join([header, forged, signature]), key, audience)
        return False
    except jwt.InvalidSignatureError:
        return True

def check_jws(token, key, audience, key_id, issuer, bundle, expected):
    header = jwt.get_unverified_header(token)
    check(header == {"alg": "ES256", "kid": key_id, "typ": "JWT"}, f"header {header}")
    claims = decode(token, key, audience)
    check(claims["iss"] == issuer and claims["bid"] == bundle and claims["aud"] == audience, f"claims {claims}")
    check(isinstance(claims["iat"], int), "iat is not whole seconds")
    check(re.fullmatch(r"[0-9a-f-]{36}", claims["nonce"]) is not None, f"nonce {claims['nonce']}")
    for name, value in expected.items():
        check(claims.get(name) == value, f"{name}: {claims.get(name)!r} != {value!r}")
    extra = set(claims) - {"iss", "iat", "aud", "bid", "nonce"} - set(expected)
    check(not extra, f"unexpected claims {extra}")
    check(tampered_fails(token, key, audience, "productId", "market.pro.yearly"), "a tampered productId verified")

def main(argv):
    if argv[1] == "keygen":
        key = ec.generate_private_key(ec.SECP256R1())
        with open(argv[2], "wb") as f:
            f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()))
        return 0
    key = public_key(argv[2])
    bundle, key_id, issuer, product = argv[3:7]
    if argv[1] == "promotional":
        offer, token, transaction = argv[7], argv[8], argv[9]
        token = "" if token == "-" else token
        answer = json.load(open(argv[10]))
        v1 = answer["v1"]
        check(v1["keyIdentifier"] == key_id, f"keyIdentifier {v1['keyIdentifier']}")
        check(re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", v1["nonce"]) is not None,
              f"nonce {v1['nonce']}")
        check(isinstance(v1["timestamp"], int) and v1["timestamp"] > 1_600_000_000_000, f"timestamp {v1['timestamp']}")
        parts = [bundle, key_id, product, offer, token.lower(), v1["nonce"].lower(), str(v1["timestamp"])]
        signature = base64.b64decode(v1["signature"])
        check(v1_verifies(key, "\u2063".join(parts), signature), "V1 signature does not verify")
        for index in range(len(parts)):
            changed = list(parts)
            changed[index] = changed[index] + "x"
            check(not v1_verifies(key, "\u2063".join(changed), signature), f"V1 verified with part {index} tampered")
        expected = {"productId": product, "offerIdentifier": offer}
        if transaction != "-":
            expected["transactionId"] = transaction
        check_jws(answer["v2"], key, "promotional-offer", key_id, issuer, bundle, expected)
    elif argv[1] == "eligibility":
        allow, transaction = argv[7] == "true", argv[8]
        answer = json.load(open(argv[9]))
        check(answer["allowIntroductoryOffer"] is allow, f"allowIntroductoryOffer {answer['allowIntroductoryOffer']}")
        check_jws(answer["signature"], key, "introductory-offer-eligibility", key_id, issuer, bundle,
                  {"productId": product, "allowIntroductoryOffer": allow, "transactionId": transaction})
    for failure in failures:
        print("FAIL:", failure)
    print("ok" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0

sys.exit(main(sys.argv))
