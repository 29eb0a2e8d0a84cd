#!/usr/bin/env python3
"""The peer for `tally-bench verify`: Apple's app-store-server-library verifying the same signed transactions.

Usage: apple_verify.py ROOT.der BUNDLE_ID ENVIRONMENT JWS_FILE
Reads one JWS per line, verifies every one with online checks off, and prints
{"count": N, "seconds": S, "library": VERSION} as JSON. Exits 1 if any verification fails.
"""
import importlib.metadata
import json
import sys
import time

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier


def main() -> int:
    root_path, bundle_id, environment, jws_path = sys.argv[1:5]
    with open(root_path, "rb") as handle:
        root = handle.read()
    with open(jws_path) as handle:
        tokens = [line.strip() for line in handle if line.strip()]
    verifier = SignedDataVerifier([root], False, Environment(environment), bundle_id)
    start = time.perf_counter()
    for token in tokens:
        verifier.verify_and_decode_signed_transaction(token)
    seconds = time.perf_counter() - start
    print(json.dumps({"count": len(tokens), "seconds": seconds,
                      "library": importlib.metadata.version("app-store-server-library")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
