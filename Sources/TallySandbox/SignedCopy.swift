import Foundation
import TallyCore

/// A later copy of a transaction or a renewal info is signed strictly after the copy it replaces.
///
/// A server keeps the copy with the newest `signedDate` (and, on a tie, the revoked one), so a copy signed at the
/// same millisecond as the one before it could lose: a refund reversed before the sandbox clock moves would stay
/// revoked. Each re-signing is at the sandbox's `now`, or 1 ms after the previous copy when `now` is not later.
extension Date {
    /// `now`, or 1 ms after `previous` when `now` is not at least 1 ms later (in Apple's whole milliseconds);
    /// `now` when there was no previous signing.
    static func signedDate(after previous: Date?, now: Date) -> Date {
        guard let previous else { return now }
        let floor = previous.millisecondsSince1970 + 1
        return now.millisecondsSince1970 >= floor ? now : Date(millisecondsSince1970: floor)
    }
}

extension StoreTransaction {
    /// Marks this copy signed at `now`, strictly after the copy it replaces.
    mutating func resign(at now: Date) {
        signedDate = .signedDate(after: signedDate, now: now)
    }
}

extension RenewalInfo {
    /// Marks this copy signed at `now`, strictly after the copy it replaces.
    mutating func resign(at now: Date) {
        signedDate = .signedDate(after: signedDate, now: now)
    }
}
