/// The text of `tally serve --help`.
enum ServeHelp {
    static let usage = "tally serve --data DIR --config tally-server.json [--listen HOST:PORT] [--access-log]"
    static let keyUsage = "tally serve key --role public|secret|dashboard [--name NAME]"
    static let customerTokenUsage = "tally serve customer-token --config tally-server.json --user ID [--seconds N] "
        + "[--key ID] [--private-key FILE] | --new-secret FILE"
    static let signingKeyUsage = "tally serve signing-key --out FILE"
    static let reconcileUsage = "tally serve reconcile --data DIR --config tally-server.json --customer ID [--json]"
    static let backfillUsage = "tally serve backfill --data DIR --config tally-server.json --since DATE [--json]"
    static let webhooksUsage = "tally serve webhooks list [--filter all|pending|failed|dead|delivered] [--limit N] "
        + "[--before SEQ] | retry ID | replay --since DATE | test  --data DIR --config tally-server.json [--json]"

    static let text = """
    tally serve — the entitlement server (docs/server.md)

    USAGE
      \(usage)
      \(keyUsage)
      \(customerTokenUsage)
      \(signingKeyUsage)
      \(reconcileUsage)
      \(backfillUsage)
      \(webhooksUsage)

    Opens (or creates) DIR/tally.sqlite — or the PostgreSQL database of "store": {"kind": "postgres",
    "url" or "urlEnv", "poolSize"}, which several servers may share — and answers the /v1 API. Prints
    'tally serve: listening on http://HOST:PORT' when ready; --listen 127.0.0.1:0 picks a free port.
    SIGINT or SIGTERM stop it: it stops accepting, finishes the requests in flight (at most
    limits.shutdownGraceSeconds), then exits 0. A bad configuration exits 2 with the problem on stderr.
    --access-log writes a line per request to stderr: method, route, status, milliseconds (never the path).

    'tally serve key' prints a new random key and its configuration entry as JSON; put the entry
    (without "key") in the configuration's "keys" and give the key to the client.

    'tally serve signing-key' writes a new P-256 key to FILE (PKCS#8 PEM, mode 0600, never over an
    existing file) for "signing": {"privateKeyFile": FILE}, and prints its public key for the app's
    ServerLink.serverPublicKey: the server then signs every customer answer (Tally-Signature).

    'tally serve reconcile' brings one customer level with the App Store through the App Store Server
    API configured in "appStoreServerAPI" (Get Transaction History v2 from the customer's stored revision,
    then Get All Subscription Statuses; every payload verified). Run it while no server uses DIR; with a
    server running, POST /v1/customers/{id}/reconcile with a secret key instead.

    'tally serve backfill' pulls Get Notification History (the same "appStoreServerAPI") from where the
    last back-fill stopped (never before --since, ISO 8601) to now and applies every notification as a
    live one (a notification already received is a duplicate and changes nothing), printing a line per
    page; the cursor is stored after each page, so a back-fill stopped halfway resumes. Run it while no
    server uses DIR.

    'tally serve webhooks' works the webhook outbox (docs/webhooks.md): list the deliveries newest first
    with the counts, retry an event's dead or failing deliveries now, replay every event written since a
    date (the same ids), or queue a TEST event for every endpoint. Safe beside a running server.
    """

    static let customerToken = """
    \(customerTokenUsage)

    Prints a customer token for --user, signed with the first of the configuration's customers.tokenKeys (or the one
    --key names; an ES256 key needs its --private-key), valid for --seconds (default 3600): the JWT an app's backend
    issues to a signed-in user, which the app sends as 'Tally-Customer-Token' (docs/server.md, Customer tokens).
    For tests and demos: in production the app's backend signs them. --new-secret FILE writes a new HS256 secret
    (32 random bytes, base64, mode 0600) and prints the tokenKeys entry for it.
    """

    static let key = """
    \(keyUsage)

    Prints {"key":"tk_…","name":…,"role":…,"sha256":"<64 hex>"}. The server stores only the SHA-256.
    """

    static let signingKey = """
    \(signingKeyUsage)

    Writes FILE and prints {"privateKeyFile":FILE,"publicKey":"<SPKI DER, base64>","publicKeyX963":"<04‖X‖Y, base64>"}.
    Either public form goes in ServerLink.serverPublicKey; FILE stays on the server only.
    """
}
