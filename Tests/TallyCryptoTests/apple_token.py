"""Apple's app-store-server-library and PyJWT against Tally's App Store Server API tokens.

usage: apple_token.py sign KEY.pem KEY_ID ISSUER_ID BUNDLE_ID   -> prints the token Apple's client would send
       apple_token.py check PUBLIC.pem TOKEN                    -> prints {"header":…,"claims":…} or exits 1
"""
import json
import sys

import jwt
from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment

if sys.argv[1] == "sign":
    with open(sys.argv[2], "rb") as f:
        key = f.read()
    client = AppStoreServerAPIClient(key, sys.argv[3], sys.argv[4], sys.argv[5], Environment.SANDBOX)
    print(client._generate_token())
elif sys.argv[1] == "check":
    with open(sys.argv[2], "rb") as f:
        public = f.read()
    token = sys.argv[3]
    try:
        claims = jwt.decode(token, public, algorithms=["ES256"], audience="appstoreconnect-v1")
    except Exception as error:  # the test prints why
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}))
        sys.exit(1)
    print(json.dumps({"header": jwt.get_unverified_header(token), "claims": claims}))
