import TallyCore


/// What the server made of a posted transaction.
enum ServerAnswer: Sendable {
    /// 2xx: stored durably; the customer's state after the post and what the server did with the transaction
    /// (nil when the answer names no outcome this engine knows), and the answer as received (kept with the state).
    case accepted(CustomerState, ServerOutcome?, SignedAnswer)
    /// 422 (it does not verify for this server) or 409 (it stays with another customer): a final answer, so the
    /// transaction is finished and the refusal reported; posting it again would get the same.
    case refused(status: Int, code: String, message: String)
    /// Unreachable, a timeout, 5xx, 429, or any other answer: nothing was acknowledged; retry later.
    case unavailable(ServerProblem)
    /// A 2xx whose signature does not verify with the pinned ``ServerLink/serverPublicKey`` (none, forged, or
    /// signed for another request or customer): not believed, so treated as ``unavailable(_:)`` and reported.
    case unverified(String)
}
