// `import Tally` is enough for an app: the model the engine's API uses (`StoreTransaction`, `CatalogProduct`,
// `Catalog`, `AppConfiguration`, `CustomerState`, `RenewalInfo`, …) comes with it.
//
// None of these names is a top-level name of StoreKit or SwiftUI (StoreKit's `Transaction`, `Product`,
// `AppTransaction`, `Storefront`, `SubscriptionPeriod`, `SubscriptionStatus`; SwiftUI's `Environment` and
// `Transaction`), so a file importing Tally beside them uses Apple's names unqualified (Tests/TallyAppTests).
@_exported import TallyCore
