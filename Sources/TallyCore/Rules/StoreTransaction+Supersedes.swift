import Foundation

extension StoreTransaction {
    /// Whether this copy of a transaction replaces `stored`, a copy of the same transaction id kept earlier:
    /// **newer facts win**.
    ///
    /// - The copy Apple signed later wins (`signedDate`; a copy without one, such as a receipt's in-app record,
    ///   is older than any signed copy). So an old purchase copy replayed after its refund never undoes the
    ///   refund, and a later copy without `revocationDate` (Apple's refund reversal) does restore it.
    /// - On equal `signedDate`, the copy with a `revocationDate` wins.
    /// - On a full tie, this (the incoming) copy wins: it is the latest word the caller received.
    ///
    /// The one rule for which copy counts: the engine's journal, the rules' history and the server's store
    /// all use it.
    public func supersedes(_ stored: StoreTransaction) -> Bool {
        let incomingSigned = signedDate ?? .distantPast
        let storedSigned = stored.signedDate ?? .distantPast
        if incomingSigned != storedSigned { return incomingSigned > storedSigned }
        if isRevoked != stored.isRevoked { return isRevoked }
        return true
    }

    /// The copy that counts of `stored` (if any) and `incoming`, by ``supersedes(_:)``.
    public static func newest(stored: StoreTransaction?, incoming: StoreTransaction) -> StoreTransaction {
        guard let stored else { return incoming }
        return incoming.supersedes(stored) ? incoming : stored
    }
}
