"""Verifies a `tally serve` answer's Tally-Signature independently, as docs/server.md defines it, with the
`cryptography` package (OpenSSL), the way Apple's app-store-server-library verifies ES256.

Usage: verify_answer_signature.py PUBLIC_KEY_BASE64 HEADER NONCE BODY_FILE
PUBLIC_KEY_BASE64: SubjectPublicKeyInfo DER, base64. Prints "valid" or "invalid: why"; exit 0 either way.
"""
import base64
import hashlib
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import load_der_public_key

key_b64, header, nonce, body_file = sys.argv[1:5]
key = load_der_public_key(base64.b64decode(key_b64))
body = open(body_file, "rb").read()
fields = header.split(";")
if len(fields) != 4 or fields[0] != "v1" or not fields[1].startswith("t=") or not fields[2].startswith("n=") \
        or not fields[3].startswith("s="):
    print("invalid: header is not v1;t=;n=;s=")
    sys.exit(0)
time, signed_nonce, signature = fields[1][2:], fields[2][2:], fields[3][2:]
if signed_nonce != nonce:
    print(f"invalid: signed for nonce {signed_nonce!r}, not {nonce!r}")
    sys.exit(0)
raw = base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4))
if len(raw) != 64:
    print("invalid: signature is not 64 bytes")
    sys.exit(0)
der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
message = f"tally-answer-v1\n{time}\n{signed_nonce}\n".encode() + body
try:
    key.verify(der, message, ec.ECDSA(hashes.SHA256()))
    print("valid")
except InvalidSignature:
    print("invalid: ECDSA P-256 SHA-256 check failed")
