import Foundation

/// What `buy` and `state` print: the engine's view after launch delivery (its state, and the customer file's), and what the sandbox still holds
/// unfinished for the device.
struct HarnessState: Codable, Equatable {
    var coins: Decimal
    var transactions: Int
    var unfinished: Int
    var premium: Bool
    /// The balance by the customer file alone (``Store/localState``), whatever the state's source.
    var localCoins: Decimal
    /// ``Store/stateSource``: `local`, `server` or `localCache`.
    var source: String

    /// One JSON line, keys sorted.
    func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
