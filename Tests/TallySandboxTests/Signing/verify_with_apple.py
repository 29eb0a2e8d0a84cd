#!/usr/bin/env python3
"""Verify Tally sandbox JWS with Apple's app-store-server-library (offline, strict chain checks on).

usage: verify_with_apple.py ROOT_DER_PATH BUNDLE_ID KIND JWS [KIND JWS ...]
KIND is "transaction", "renewal" or "notification". Prints one JSON object on stdout:
  {"libraryVersion": ..., "results": [{"kind", "ok", "status"|"payload"}, ...]}
Exit status: 0 when every JWS verified, 1 when one did not, 3 when the library is not installed.
"""
import json
import sys


def plain(value):
    if hasattr(value, "__attrs_attrs__"):
        return payload_dict(value)
    """A JSON-friendly form of a decoded model field (enums become their raw value)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if hasattr(value, "value"):
        return value.value
    if isinstance(value, list):
        return [plain(item) for item in value]
    return str(value)


def payload_dict(decoded):
    fields = getattr(type(decoded), "__attrs_attrs__", ())
    return {field.name: plain(getattr(decoded, field.name)) for field in fields
            if getattr(decoded, field.name) is not None}


def main(argv):
    try:
        from importlib.metadata import version
        from appstoreserverlibrary.models.Environment import Environment
        from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
    except ImportError as error:
        print(json.dumps({"error": "app-store-server-library is not importable (%s); "
                                   "run: pip install app-store-server-library" % error}))
        return 3
    if len(argv) < 5 or (len(argv) - 3) % 2 != 0:
        print(json.dumps({"error": __doc__}))
        return 2
    root_path, bundle_id, pairs = argv[1], argv[2], argv[3:]
    with open(root_path, "rb") as handle:
        root_der = handle.read()
    # Online checks off (no OCSP from a local CA); the chain verifier's strict checks stay on (default).
    verifier = SignedDataVerifier([root_der], False, Environment.SANDBOX, bundle_id)
    results = []
    for kind, jws in zip(pairs[0::2], pairs[1::2]):
        try:
            if kind == "transaction":
                decoded = verifier.verify_and_decode_signed_transaction(jws)
            elif kind == "renewal":
                decoded = verifier.verify_and_decode_renewal_info(jws)
            elif kind == "notification":
                decoded = verifier.verify_and_decode_notification(jws)
                data = decoded.data
                # The nested payloads are JWS of their own: Apple's verifier must accept them too.
                if data is not None and data.signedTransactionInfo is not None:
                    verifier.verify_and_decode_signed_transaction(data.signedTransactionInfo)
                if data is not None and data.signedRenewalInfo is not None:
                    verifier.verify_and_decode_renewal_info(data.signedRenewalInfo)
            else:
                raise ValueError("unknown kind %r" % kind)
            results.append({"kind": kind, "ok": True, "payload": payload_dict(decoded)})
        except VerificationException as error:
            results.append({"kind": kind, "ok": False, "status": error.status.name})
    print(json.dumps({"libraryVersion": version("app-store-server-library"), "results": results}))
    return 0 if all(result["ok"] for result in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
