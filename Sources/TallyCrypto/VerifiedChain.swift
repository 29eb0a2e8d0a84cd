import Foundation

/// A chain OpenSSL verified: leaf first, trusted root last.
public struct VerifiedChain: Sendable {
    /// The certificates, leaf first.
    public var certificates: [Certificate]

    /// The span in which every certificate of the chain is valid.
    public var validity: ClosedRange<Date> {
        let start = certificates.map(\.notBefore).max() ?? .distantPast
        let end = certificates.map(\.notAfter).min() ?? .distantFuture
        return start <= end ? start...end : start...start
    }
}
