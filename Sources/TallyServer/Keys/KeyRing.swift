import Foundation
import TallyCrypto
import TallyHTTP

/// The configured keys, matched by the SHA-256 of the presented key in constant time.
struct KeyRing: Sendable {
    let entries: [APIKeyEntry]

    /// The entry whose hash matches `key`, or nil. Every configured hash is compared in full whatever
    /// matches, so the time taken does not tell which entry (or how much of a hash) matched.
    func entry(forKey key: String) -> APIKeyEntry? {
        let digest = ECDSA.sha256(Array(key.utf8))
        var found = -1
        for (index, entry) in entries.enumerated() {
            var difference: UInt8 = entry.sha256.count == digest.count ? 0 : 1
            for offset in 0..<min(digest.count, entry.sha256.count) {
                difference |= entry.sha256[offset] ^ digest[offset]
            }
            // Branch-free select: mask is all ones when difference == 0.
            let mask = Int(difference == 0 ? 1 : 0) &* -1
            found = (index & mask) | (found & ~mask)
        }
        return found >= 0 ? entries[found] : nil
    }

    /// The key from an `Authorization: Bearer <key>` header, or nil.
    static func bearerToken(_ header: String?) -> String? {
        header.flatMap(HTTPRequest.bearerToken(fromAuthorization:))
    }
}
