import TallyCore


/// Which copy of a transaction to keep when the same id arrives again.
enum TransactionMerge {
    /// A revoked copy beats one that is not (a late redelivery of the purchase must not undo a refund); then the
    /// later `signedDate`; on a tie, the incoming copy (the latest word from the store).
    static func pick(existing: Transaction?, incoming: Transaction) -> Transaction {
        guard let existing else { return incoming }
        if existing.isRevoked != incoming.isRevoked { return existing.isRevoked ? existing : incoming }
        if let old = existing.signedDate, let new = incoming.signedDate, old > new { return existing }
        return incoming
    }
}
