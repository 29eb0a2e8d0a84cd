// `import Tally` is enough for an app: the model the engine's API uses (`Transaction`, `Product`, `Catalog`,
// `AppConfiguration`, `CustomerState`, `RenewalInfo`, …) comes with it.
//
// Apps that also import StoreKit, which has its own `Transaction` and `Product`, spell Tally's with the module
// name: `Tally.Transaction`, `Tally.Product` (or `TallyCore.Transaction`), or use the aliases below.
@_exported import TallyCore

/// Tally's transaction (`TallyCore.Transaction`), under a name StoreKit does not use.
public typealias TallyTransaction = TallyCore.Transaction
/// Tally's product (`TallyCore.Product`), under a name StoreKit does not use.
public typealias TallyProduct = TallyCore.Product
