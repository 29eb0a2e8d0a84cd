"""PyJWT against Tally's customer tokens (an app's backend written in Python issues them this way).

usage: customer_token.py sign-hs256 SECRET_B64 SUB AUD SECONDS      -> prints an HS256 token
       customer_token.py sign-es256 KEY.pem SUB AUD SECONDS         -> prints an ES256 token
       customer_token.py check-hs256 SECRET_B64 AUD TOKEN           -> prints the claims or exits 1
       customer_token.py check-es256 PUBLIC.pem AUD TOKEN           -> prints the claims or exits 1
"""
import base64
import json
import sys
import time

import jwt

command = sys.argv[1]
if command.startswith("sign"):
    key = base64.b64decode(sys.argv[2]) if command == "sign-hs256" else open(sys.argv[2], "rb").read()
    now = int(time.time())
    claims = {"sub": sys.argv[3], "aud": sys.argv[4], "iat": now, "exp": now + int(sys.argv[5])}
    print(jwt.encode(claims, key, algorithm="HS256" if command == "sign-hs256" else "ES256"))
else:
    key = base64.b64decode(sys.argv[2]) if command == "check-hs256" else open(sys.argv[2], "rb").read()
    try:
        claims = jwt.decode(sys.argv[4], key, algorithms=["HS256" if command == "check-hs256" else "ES256"],
                            audience=sys.argv[3])
    except Exception as error:  # the test prints why
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}))
        sys.exit(1)
    print(json.dumps(claims))
