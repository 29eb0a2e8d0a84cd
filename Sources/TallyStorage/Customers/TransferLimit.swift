import Foundation

/// How often one chain may change hands under ``OwnershipPolicy/transfer`` (`transfersPerChainPerHour` in
/// `tally-server.json`): a chain that moved ``perChainPerHour`` times within the last hour stays where it is, and
/// the post is answered 429 `transfer_limited`. A move back between two customers who swapped the chain within the
/// hour rewrites their transfer row (counted in its moves) instead of adding one, so a ping-pong grows no history.
public struct TransferLimit: Sendable, Hashable {
    /// Moves of one chain allowed within ``window`` (at least 1).
    public var perChainPerHour: Int
    /// The window: an hour.
    public static let window: TimeInterval = 3_600

    /// A limit of `perChainPerHour` moves (10 by default; below 1 counts as 1).
    public init(perChainPerHour: Int = 10) {
        self.perChainPerHour = max(1, perChainPerHour)
    }
}
