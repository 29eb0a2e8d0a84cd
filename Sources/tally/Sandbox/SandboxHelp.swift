/// Help texts of `tally sandbox`.
enum SandboxHelp {
    static let usages: [(String, String, String)] = [
        ("init", "tally sandbox init --config FILE.storekit [--app-config tally.json] [--start ISO8601] [--data DIR]",
         "Create a store in DIR from a .storekit file and the app's tally.json (default: beside the .storekit)."),
        ("reload", "tally sandbox reload [--config FILE.storekit] [--app-config tally.json] [--json] [--data DIR]",
         "Read the .storekit file (and tally.json) the store was created from again, or the files named: products added since are sold from now on, by every process using DIR (a running 'tally sandbox serve' or app). Accounts, transactions, subscriptions, pending purchases, switches and the clock are kept. Refused (exit 1, nothing changed) when the new files would break them: a product bought, pending or subscribed to is missing, changed its type or subscription group, or the bundle id changed; each is named."),
        ("products", "tally sandbox products [--ids a,b,c] [--locale en_US] [--json] [--data DIR]",
         "List products with localized prices; unknown ids come back as invalid identifiers."),
        ("buy", "tally sandbox buy PRODUCT_ID [--account A] [--device D] [--quantity N] [--app-account-token UUID] [--offer ID (--key-id K --nonce UUID --signature BASE64 --timestamp MS | --offer-jws JWS) | --win-back ID | --intro-eligibility JWS] [--json]",
         "Buy a product. Exit 0 when purchased or pending (Ask to Buy), 1 when cancelled or refused, 2 for an unknown product or a quantity it does not allow, or an offer the product does not have. An offer is checked as the App Store does: --offer with a promotional offer's V1 signature (made with a key of 'tally sandbox api-key' over bundle id, key id, product, offer, app account token, nonce and timestamp) or its V2 JWS; refused (invalidOfferSignature) when it does not verify, names another product, offer, bundle or token, is older than 24 hours or its nonce was used before. --win-back ID only for an account that lapsed in the group, once per offer (ineligibleForOffer). --intro-eligibility JWS (an introductory offer eligibility JWS) grants or denies the introductory offer whatever the account used before. The transaction carries offerType (1 introductory, 2 promotional, 4 win-back) and offerIdentifier; renewals after the offer's periods are at the standard price. A promotional offer bought on the subscription in force applies from its next renewal (OFFER_REDEEMED)."),
        ("offer-code", "tally sandbox offer-code create --offer ID [--product P] [--count N] | redeem CODE [--account A] [--device D] | list [--json] [--data DIR]",
         "Offer codes for an offer of the .storekit file's codeOffers (by reference name): create prints N one-use codes; redeem uses one for the account as the App Store's redemption sheet does: without a subscription in the group it subscribes with the offer (SUBSCRIBED, offerType 3, offerIdentifier the reference name), a subscriber of the product gets the offer from the next renewal (OFFER_REDEEMED), of another product of the group upgrades with it now (OFFER_REDEEMED UPGRADE) or downgrades at renewal. Exit 2 for an unknown code, 1 for a code used already."),
        ("approve", "tally sandbox approve PURCHASE_ID [--data DIR]", "Approve an Ask to Buy request."),
        ("decline", "tally sandbox decline PURCHASE_ID [--data DIR]", "Decline an Ask to Buy request; nothing is charged and the app's pending purchase ends (a declined event)."),
        ("resolve", "tally sandbox resolve PURCHASE_ID [--data DIR]", "Complete an interrupted purchase."),
        ("refund", "tally sandbox refund TRANSACTION_ID [--reason other|app-issue] [--data DIR]",
         "Refund a transaction: it gains revocationDate and revocationReason."),
        ("refund-request", "tally sandbox refund-request TRANSACTION_ID [--reason unintended-purchase|fulfillment-issue|unsatisfied-with-purchase|legal|other] [--decide approve|decline|auto] [--json] [--data DIR]",
         "The customer asks Apple to refund a consumable or auto-renewable transaction: a CONSUMPTION_REQUEST (reason default other). Then --decide approve refunds it (REFUND), decline declines it (REFUND_DECLINED), auto decides by the consumption information the app's server sent since the request (Send Consumption Information): its refundPreference is followed (DECLINE declines, GRANT_FULL approves, GRANT_PRORATED approves a prorated refund); else an undelivered purchase is approved; else one consumed half or more (v2 consumptionPercentage >= 50000, v1 consumptionStatus 3) is declined; else, or with no information, approved. Given only the transaction id of an existing request, shows the requests and the consumption information."),
        ("refund-reverse", "tally sandbox refund-reverse TRANSACTION_ID [--json] [--data DIR]",
         "Apple reverses a refund (a dispute): a later copy of the transaction without its revocation, signed now (REFUND_REVERSED); a subscription revoked by it is in force again until its expiry."),
        ("promote", "tally sandbox promote [PRODUCT_ID] [--account A] [--json] [--data DIR]",
         "The customer starts buying PRODUCT_ID in the App Store (a promoted in-app purchase): the account's app receives it once, as StoreKit's PurchaseIntent (the engine's promotedPurchases()), and completes it by buying; nothing is charged until it does. Without PRODUCT_ID, list the account's intents (waiting, or taken by the app). Exit 2 for a product not in the catalog."),
        ("message", "tally sandbox message [billing-issue|price-increase] [--account A] [--json] [--data DIR]",
         "The App Store has a message for the customer (StoreKit's Message: a billing issue, a price increase to consent to): the account's app receives it once (the engine's storeMessages()) and shows it when it chooses (display(_:in:)). Without a reason, list the account's messages (waiting, taken, shown)."),
        ("sheets", "tally sandbox sheets [--account A] [--json] [--data DIR]",
         "List the App Store sheets the account's apps showed through the engine (manage-subscriptions, offer-code-redeem), oldest first; a refund request made in the app is an open request in 'tally sandbox refund-request TRANSACTION_ID'."),
        ("advance", "tally sandbox advance DURATION [--data DIR]",
         "Move the store's clock (45m, 12h, 3d, 2w, 1M, 1y): renewals, grace, billing retry and expiry happen."),
        ("auto-renew", "tally sandbox auto-renew PRODUCT_ID on|off [--account A] [--data DIR]",
         "Turn auto-renew of a subscription on or off."),
        ("set", "tally sandbox set ask-to-buy|billing-issue|grace-period|parental-controls|interrupted on|off [--account A] | notification-url URL|none | notification-retries on|off",
         "Turn a store behaviour on or off, for everyone or one account. notification-url: where 'tally sandbox serve' posts App Store Server Notifications V2 (http or https; none stops them); from then on every event Apple notifies records its notification, signed when it happens. notification-retries (default on): a failed delivery is retried 5 times, 1, 12, 24, 48 and 72 hours (sandbox clock) after the previous attempt, as Apple's production environment does; off: one attempt, as Apple's sandbox environment."),
        ("fail", "tally sandbox fail products|purchase|restore ERROR|none [--count N] [--data DIR]",
         "Fail the next N calls of an API with network-error, system-error, not-available, user-cancelled, not-allowed or unknown; none (or --count 0) clears its faults."),
        ("restore", "tally sandbox restore [--account A] [--device D] [--json]",
         "Restore purchases on a device: non-consumables, subscriptions, non-renewing; never finished consumables."),
        ("notifications", "tally sandbox notifications [--json] [--data DIR]",
         "Every notification recorded, oldest signedDate first: type, subtype, notificationUUID, pending, delivered or failed, and each attempt with Apple's sendAttemptResult (SUCCESS, TIMED_OUT, NO_RESPONSE, UNSUCCESSFUL_HTTP_RESPONSE_CODE, …)."),
        ("history", "tally sandbox history [--account A] [--json] [--data DIR]",
         "Every transaction, pending purchase and event; with --json also renewal infos and the signed JWS forms."),
        ("state", "tally sandbox state [--account A] [--json] [--data DIR]",
         "What the customer owns now, as the App Store sees it: entitlements, subscriptions, balances bought (the App Store knows no spends)."),
        ("root", "tally sandbox root [--der] [--data DIR]", "Print the sandbox's root certificate (PEM, or DER with --der) for verifiers."),
        ("serve", "tally sandbox serve [--listen HOST:PORT] [--rate-limit N] [--notification-timeout SECONDS] [--data DIR]",
         "Serve the App Store Server API over this sandbox on HOST:PORT (default 127.0.0.1:8090), until SIGINT or SIGTERM. Requests need a JWT signed with a key from 'tally sandbox api-key' (401 otherwise); --rate-limit N answers 429 beyond N requests per second per key. Endpoints (Apple's paths under /inApps): GET v1/transactions/{transactionId} (Get Transaction Info); GET v1|v2/history/{transactionId} (Get Transaction History); GET v1/subscriptions/{transactionId} (Get All Subscription Statuses); GET v1/lookup/{orderId} (Look Up Order ID: the order ids 'tally sandbox history' shows); GET v2/refund/lookup/{transactionId} (Get Refund History); PUT v1|v2/transactions/consumption/{transactionId} (Send Consumption Information: 202, kept for 'tally sandbox refund-request'); PUT v1/subscriptions/extend/{originalTransactionId} (Extend a Subscription Renewal Date: RENEWAL_EXTENDED); POST v1/subscriptions/extend/mass and GET v1/subscriptions/extend/mass/{productId}/{requestIdentifier} (mass extension, run at once: RENEWAL_EXTENDED per subscriber, RENEWAL_EXTENSION FAILURE/SUMMARY); PUT v1/transactions/{originalTransactionId}/appAccountToken (Set App Account Token). POST v1/notifications/history (Get Notification History), POST v1/notifications/test and GET v1/notifications/test/{token} (test notifications). Not yet: Get Refund History v1, Get App Transaction Info, Finish Transaction. It also delivers the notifications recorded (see 'set notification-url'): POST {\"signedPayload\": …} as application/json, one at a time in signedDate order, including those of events other tally sandbox commands make while it runs; an answer outside 200-206, or none within --notification-timeout SECONDS (default 5), is an attempt that failed, retried on the sandbox clock when notification-retries is on. A notification is marked delivered only after its 200-206; one cut short by a crash is sent again (at least once, same notificationUUID and signedDate)."),
        ("api-key", "tally sandbox api-key [--json] [--data DIR]",
         "Make an in-app purchase key (P-256) for 'tally sandbox serve': prints its key id, issuer id and the path of its private key (DIR/api-keys/KEY_ID.p8)."),
    ]

    static var overview: String {
        var lines = ["tally sandbox — a simulated App Store kept in a data directory (--data DIR, default ./.tally)", ""]
        for (_, usage, summary) in usages {
            lines.append("  " + usage)
            lines.append("      " + summary)
        }
        lines.append("")
        lines.append("Defaults: --account default, --device default. Options may come in any order.")
        lines.append("Exit codes, as tally market for the same situation: 0 ok (purchased, pending); 1 refused or "
            + "failed (cancelled, not allowed, an injected fault); 2 usage or bad input (unknown product, purchase or "
            + "transaction id, a quantity the product does not allow, no or a damaged sandbox).")
        return lines.joined(separator: "\n")
    }

    static func usageLine(for name: String) -> String? {
        usages.first { $0.0 == name }?.1
    }

    static func text(for name: String) -> String? {
        usages.first { $0.0 == name }.map { "usage: \($0.1)\n\n\($0.2)" }
    }
}
