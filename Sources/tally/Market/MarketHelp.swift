/// The help texts of `tally market`.
enum MarketHelp {
    static let usage = "tally market [--data DIR] [--config FILE.storekit] [--app-config tally.json] "
        + "[--account A] [--device D] [--locale L] [--server URL --key PUBLIC_KEY [--user ID] [--server-signing-key BASE64] [--backend-key SECRET] [--customer-token-secret FILE]] "
        + "[--json] [COMMAND ...]"

    static let commands = """
      products                      the products with localized prices
      status                        coins, premium, features, subscriptions, pending purchases
      buy PRODUCT_ID [--quantity N] buy a product (Ask to Buy leaves it pending)
        [--offer ID]                with --server: with a promotional offer the server signs (through the
                                    app backend with --backend-key, else with the customer token)
        [--win-back ID]             with a win-back offer (only after the subscription lapsed)
        [--intro-eligibility]       with --server: the introductory offer as the server's eligibility JWS decides
      restore                       restore purchases (non-consumables and subscriptions)
      spend CURRENCY AMOUNT         spend virtual currency, e.g. 'spend coins 5' (with --server: through the
                                    app backend, which needs --backend-key)
      login APP_USER_ID             with --server: log in; an anonymous customer's purchases follow (aliased on
                                    the server), restored ones follow the server's ownership policy
      logout                        with --server: a new anonymous customer; nothing of the previous is shown
      attributes KEY=VALUE…         with --server: set the customer's attributes (email=a@b.c campaign=spring)
      offerings [--placement P]     the current offering the server decided (with --server; else the bundled
                                    catalog): packages with product ids and localized prices, its version and
                                    where it comes from (server, the copy kept offline, bundled); interactive,
                                    a change on the server shows at the market's next refresh (every 5 s)
      help                          this list
      quit                          leave (interactive mode)
    """

    static let text = """
    tally market — the tutorials' demo shop in the terminal, over the sandbox in --data

    USAGE
      \(usage)

    Without a command it is interactive: reads commands line by line and prints store events as they
    happen. With a command it runs it and exits. The sandbox (tally sandbox --data DIR) plays the App Store:
    approve an Ask to Buy, refund, advance the clock there. --config creates the sandbox when DIR has none.
    Interactive, it also prints each purchase started in the App Store (tally sandbox promote PRODUCT: complete
    it with buy) and each App Store message (tally sandbox message billing-issue|price-increase).

    With --server URL --key PUBLIC_KEY [--user ID] the market is an app linked to a running 'tally serve': each
    purchase is posted to the server before it is finished, and status shows the server's state for the
    customer ID — the same on every device (account) of that customer after a refresh. Without --user the
    customer is the engine's own: anonymous ($tally:anon:…, kept in the app's directory) until 'login ID'. While the server cannot
    be reached, status shows the server's last state saved on this device, marked OFFLINE. Spends belong to the
    app's backend (the server's secret key): --backend-key SECRET lets this demo play that backend — demo only,
    a real app never ships the secret key. A server with customers.requireToken wants a customer token from the
    app's backend with every request: --customer-token-secret FILE (the server's HS256 secret file) lets this demo
    sign them itself — demo only too.
    a real app never ships the secret key. --server-signing-key BASE64 pins the server's signing key (the
    publicKey 'tally serve signing-key' printed): answers and the saved state are then believed only when the
    server's Tally-Signature verifies; without it the market warns serverAnswersUnsigned.

    COMMANDS
    \(commands)

    Exit codes, as tally sandbox for the same situation: 0 ok (purchased, pending, restored); 1 refused or
    failed (cancelled, not allowed, an injected fault, a spend above the balance); 2 usage or bad input
    (unknown product or currency, a quantity the product does not allow, no or a damaged sandbox).
    """
}
