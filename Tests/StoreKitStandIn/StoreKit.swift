// StoreKit, stood in: the subset of Apple's StoreKit 2 that TallyStoreKit uses, declared with Apple's names, labels,
// optionality, `async`/`throws` and `Sendable` conformances as Apple's iOS 26 interface declares them
// (../shared/docs/storekit-interface-ios26.txt; `make check-standin` proves each public declaration is there), so the
// backend's one source compiles here (Linux) and, unchanged, against the real framework on Apple platforms.
//
// How the two worlds meet: this target's module is named `StoreKit`, so `import StoreKit` and qualified names such
// as `StoreKit.Transaction` resolve the same way as against Apple's framework. Package.swift declares this target
// only when the manifest is evaluated on Linux, and TallyStoreKit depends on it only there
// (`.when(platforms: [.linux])`): no macOS build ever compiles it, so it can never shadow the SDK's StoreKit.
//
// A test double, not a reimplementation: every answer is scripted (``StoreKitScript``) and every call recorded.
// Scripting is `@_spi(Scripting)`: only files that write `@_spi(Scripting) import StoreKit` (tests) see it, so the
// backend cannot call an initializer or hook the real framework lacks — that would fail to compile here too. Apple
// shows no public initializer for `Product`, `Transaction`, `RenewalInfo` or `Status`; the stand-in's are SPI.
// The behaviours beyond answering: `finish()` records the call and drops the transaction from the scripted
// `Transaction.unfinished` (Apple: an unfinished transaction is delivered again until finished), and a new
// `Transaction.updates` sequence first yields each unfinished transaction (Apple: "If your app has unfinished
// transactions, the updates listener receives them once, immediately after the app launches"), so at launch an
// app sees each one from `unfinished` and from `updates`.
//
// Spelling choices where the doc marks a value unconfirmed:
// - `Product.ProductType` raw strings: "Consumable", "Non-Consumable", "Non-Renewing Subscription",
//   "Auto-Renewable Subscription" (they match the App Store Server API `type`, which `jsonRepresentation` carries).
// - `Product.SubscriptionInfo.RenewalState` raw values: subscribed 1, expired 2, inBillingRetryPeriod 3,
//   inGracePeriod 4, revoked 5 (the App Store Server API's subscription `status` values).
// - `Transaction.OfferType`: introductory 1, promotional 2, code 3 (confirmed), winBack 4.
// - `Transaction.RevocationReason`: developerIssue 1, other 0. `Transaction.OwnershipType`: "PURCHASED",
//   "FAMILY_SHARED". `AppStore.Environment`: "Production", "Sandbox", "Xcode".
// - `Product.products(for:)` omits unknown ids silently (the doc: unconfirmed whether it does; the backend also
//   copes with an answer that names fewer products by reporting the missing ids as invalid, whatever the cause).
// - `VerificationResult` is Apple's `@frozen enum VerificationResult<SignedType>`, unconstrained, with conformances
//   conditional on `SignedType` (`Sendable`, `Equatable`, `Hashable`, `CustomDebugStringConvertible`), as the iOS 26
//   interface declares them.
// - `payloadValue` throws the result's `VerificationError` (the doc: unconfirmed).
// - `Transaction.jsonRepresentation` is the JWS payload (the doc: `payloadData` equals `jsonRepresentation`);
//   a scripted transaction is built from its JWS alone, so the two can never disagree.
// - `purchase(options:)` is `@MainActor`, as Apple's current page shows (whether iOS 15's SDK had it: unconfirmed).
// - The offer purchase options are values a test compares (`calls.purchases`): `promotionalOffer(offerID:signature:)`
//   is the same option as `promotionalOffer(offerID:keyID:nonce:signature:timestamp:)` with the signature's parts, and
//   `promotionalOffer(_:compactJWS:)` answers one option (Apple answers an array without saying what it holds).
// - `RenewalInfo.eligibleWinBackOfferIDs` is the payload's `eligibleWinBackOfferIds` (the App Store Server API's
//   name), empty when absent; `SubscriptionOffer.OfferType.winBack`'s raw value is "winBack" (unconfirmed).
