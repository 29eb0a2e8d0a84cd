import Foundation
import TallyCore

/// A customer's encoded `customer` object kept beside its record by a store that keeps them
/// (``CustomerStore/keepsEncodedStates``), so a read from any server is one row away from the database.
///
/// It is served only while all of these hold: the customer's version is still ``version`` (every write
/// changes it), the rules are still the ones of ``fingerprint``, and the reading server's clock is within
/// ``validFrom``..<``validUntil`` (the state changes by itself at ``validUntil``: an expiry, a grace period's end).
public struct StoredCustomerState: Sendable, Hashable {
    /// The record version the state was computed from.
    public var version: Int64
    /// What the state was computed with: the encoding's format and the rules' `CatalogRules.fingerprint`.
    public var fingerprint: String
    /// The moment it was computed at.
    public var validFrom: Date
    /// The first moment it may be wrong without a write.
    public var validUntil: Date
    /// The encoded `customer` object.
    public var body: [UInt8]

    /// Creates a kept state.
    public init(version: Int64, fingerprint: String, validFrom: Date, validUntil: Date, body: [UInt8]) {
        self.version = version
        self.fingerprint = fingerprint
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.body = body
    }

    /// Whether it may be served by a server whose rules have `fingerprint`, at `date` (by milliseconds, as stored):
    /// `validFrom` ≤ `date` < `validUntil`. Its version is the store's to check.
    public func isServable(fingerprint: String, at date: Date) -> Bool {
        self.fingerprint == fingerprint && validFrom.millisecondsSince1970 <= date.millisecondsSince1970
            && date.millisecondsSince1970 < validUntil.millisecondsSince1970
    }
}
