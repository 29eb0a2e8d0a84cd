import Foundation


/// The renewal information of each subscription chain; the copy with the latest `signedDate` wins,
/// else the later one in the list.
struct RenewalLookup: Sendable {
    private let byChain: [String: RenewalInfo]

    init(_ renewalInfos: [RenewalInfo]) {
        var byChain: [String: RenewalInfo] = [:]
        for info in renewalInfos {
            if let current = byChain[info.originalTransactionId], !info.supersedes(current) { continue }
            byChain[info.originalTransactionId] = info
        }
        self.byChain = byChain
    }

    var isEmpty: Bool { byChain.isEmpty }

    subscript(originalTransactionId: String) -> RenewalInfo? { byChain[originalTransactionId] }
}
