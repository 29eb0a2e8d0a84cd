import Foundation
import TallyCore
import TallyHTTP

/// The query of Get Transaction History (v1 and v2), checked as Apple checks it: repeated values of one
/// parameter are OR-ed, different parameters AND-ed; `revision` continues a walk (../shared/docs/
/// app-store-server-api.md §4.2).
struct HistoryQuery {
    /// Where a walk stands: the modified date and id of the last transaction returned.
    struct Revision: Comparable {
        var modified: Int64
        var transactionId: String

        static func < (left: Revision, right: Revision) -> Bool {
            left.modified != right.modified ? left.modified < right.modified
                : Array(left.transactionId.utf8).lexicographicallyPrecedes(right.transactionId.utf8)
        }

        /// The opaque token sent as `revision`.
        var token: String { Data("r1:\(modified):\(transactionId)".utf8).base64EncodedString() }

        init(modified: Int64, transactionId: String) {
            self.modified = modified
            self.transactionId = transactionId
        }

        init?(token: String) {
            guard let data = Data(base64Encoded: token), let text = String(data: data, encoding: .utf8) else { return nil }
            let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "r1", let modified = Int64(parts[1]) else { return nil }
            self.init(modified: modified, transactionId: String(parts[2]))
        }

        /// Where `transaction` sorts: its last change (`signedDate`; the purchase when never re-signed).
        init(_ transaction: StoreTransaction) {
            self.init(modified: (transaction.signedDate ?? transaction.purchaseDate).millisecondsSince1970,
                      transactionId: transaction.transactionId)
        }
    }

    static let productTypes: [String: ProductType] = [
        "AUTO_RENEWABLE": .autoRenewable, "NON_RENEWABLE": .nonRenewing, "CONSUMABLE": .consumable,
        "NON_CONSUMABLE": .nonConsumable,
    ]

    var revision: Revision?
    var startDate: Int64?
    var endDate: Int64?
    var productIds: [String]
    var productTypes: [ProductType]
    var groups: [String]
    var ownership: OwnershipType?
    var revoked: Bool?
    var descending = false

    init(_ request: HTTPRequest) throws(AppStoreAPIError) {
        func single(_ name: String) -> String? { request.queryValues(name).last }
        if let text = single("revision") {
            guard let revision = Revision(token: text) else { throw .invalidRevision }
            self.revision = revision
        }
        if let text = single("startDate") {
            guard let value = Int64(text), value >= 0 else { throw .invalidStartDate }
            startDate = value
        }
        if let text = single("endDate") {
            guard let value = Int64(text), value >= 0 else { throw .invalidEndDate }
            endDate = value
        }
        if let start = startDate, let end = endDate, start >= end { throw .startDateAfterEndDate }
        productIds = request.queryValues("productId")
        var types: [ProductType] = []
        for text in request.queryValues("productType") {
            guard let type = Self.productTypes[text] else { throw .invalidProductType }
            types.append(type)
        }
        productTypes = types
        groups = request.queryValues("subscriptionGroupIdentifier")
        if let text = single("inAppOwnershipType") {
            guard text == OwnershipType.purchased.rawValue || text == OwnershipType.familyShared.rawValue else {
                throw .invalidInAppOwnershipType
            }
            ownership = OwnershipType(rawValue: text)
        }
        if let text = single("revoked") {
            switch text.lowercased() {
            case "true": revoked = true
            case "false": revoked = false
            default: throw .invalidRevoked
            }
        } else if single("excludeRevoked")?.lowercased() == "true" {
            revoked = false
        }
        if let text = single("sort") {
            switch text {
            case "ASCENDING": descending = false
            case "DESCENDING": descending = true
            default: throw .invalidSort
            }
        }
    }

    /// Whether `transaction` passes every filter.
    func matches(_ transaction: StoreTransaction) -> Bool {
        let purchased = transaction.purchaseDate.millisecondsSince1970
        if let startDate, purchased < startDate { return false }
        if let endDate, purchased >= endDate { return false }
        if !productIds.isEmpty, !productIds.contains(transaction.productId) { return false }
        if !productTypes.isEmpty, !productTypes.contains(transaction.type) { return false }
        if !groups.isEmpty, !groups.contains(transaction.subscriptionGroupIdentifier ?? "") { return false }
        if let ownership, (transaction.inAppOwnershipType ?? .purchased) != ownership { return false }
        if let revoked, transaction.isRevoked != revoked { return false }
        return true
    }
}
