import Foundation

/// A JWS in compact serialization split into its three base64url segments.
struct CompactJWS {
    /// The protected header segment.
    var header: Substring
    /// The payload segment.
    var payload: Substring
    /// The signature segment.
    var signature: Substring
    /// `header.payload`, the bytes the signature covers.
    var signingInput: Substring

    /// Splits `text`; a failure names what is wrong.
    static func split(_ text: String) -> Result<CompactJWS, VerificationFailure> {
        let trimmed = text.trimmingWhitespace()
        // Byte-wise search over contiguous UTF-8: '.' is ASCII, so these positions are valid string
        // indices, and the search is far cheaper than splitting by Character.
        let offsets = trimmed.utf8.withContiguousStorageIfAvailable { bytes in Self.dotOffsets(bytes) }
            ?? Array(trimmed.utf8).withUnsafeBufferPointer { bytes in Self.dotOffsets(bytes) }
        let dots = offsets.map { trimmed.utf8.index(trimmed.startIndex, offsetBy: $0) }
        guard dots.count == 2 else {
            let count = dots.count > 3 ? "more than 4" : "\(dots.count + 1)"
            return .failure(VerificationFailure(
                .verificationFailure,
                "a compact JWS has 3 dot-separated parts (header.payload.signature); this input has \(count)"))
        }
        let header = trimmed[trimmed.startIndex..<dots[0]]
        let payload = trimmed[trimmed.utf8.index(after: dots[0])..<dots[1]]
        let signature = trimmed[trimmed.utf8.index(after: dots[1])...]
        guard !header.isEmpty, !payload.isEmpty, !signature.isEmpty else {
            return .failure(VerificationFailure(.verificationFailure, "a JWS part is empty"))
        }
        return .success(CompactJWS(
            header: header, payload: payload, signature: signature, signingInput: trimmed[trimmed.startIndex..<dots[1]]))
    }
}

extension CompactJWS {
    /// Offsets of the first (at most four) `.` in `bytes`, found with `memchr`.
    static func dotOffsets(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        guard let base = bytes.baseAddress else { return [] }
        var found: [Int] = []
        found.reserveCapacity(4)
        var offset = 0
        while found.count < 4, offset < bytes.count,
            let hit = memchr(base + offset, Int32(UInt8(ascii: ".")), bytes.count - offset)
        {
            let position = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
            found.append(position)
            offset = position + 1
        }
        return found
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line breaks.
    func trimmingWhitespace() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        let start = firstIndex { !isSpace($0) } ?? endIndex
        let end = lastIndex { !isSpace($0) }.map(index(after:)) ?? start
        return self[start..<Swift.max(start, end)]
    }
}
