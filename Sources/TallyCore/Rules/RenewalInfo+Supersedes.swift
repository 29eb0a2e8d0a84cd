import Foundation

extension RenewalInfo {
    /// Whether this copy replaces `stored` as the chain's renewal information: newer facts win, by
    /// `signedDate`; on equal dates, or when either copy has none, the later-received copy wins. An older
    /// copy arriving late (a retried notification) never overwrites newer renewal state.
    public func supersedes(_ stored: RenewalInfo) -> Bool {
        guard let incomingSigned = signedDate, let storedSigned = stored.signedDate else { return true }
        return incomingSigned >= storedSigned
    }
}
