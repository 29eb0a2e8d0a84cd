import Foundation

/// A JWS in compact serialization split into its three base64url segments.
package struct CompactJWS: Sendable {
    /// The protected header segment.
    package var header: Substring
    /// The payload segment.
    package var payload: Substring
    /// The signature segment.
    package var signature: Substring
    /// `header.payload`, the bytes the signature covers.
    package var signingInput: Substring

    /// Splits `text`; a failure names what is wrong.
    package static func split(_ text: String) -> Result<CompactJWS, VerificationFailure> {
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
    /// Splits `jws` after checking it is at most `maximumLength` bytes.
    package static func split(_ jws: String, maximumLength: Int) -> Result<CompactJWS, VerificationFailure> {
        guard jws.utf8.count <= maximumLength else {
            return .failure(VerificationFailure(
                .verificationFailure, "the JWS is \(jws.utf8.count) bytes; the limit is \(maximumLength) bytes"))
        }
        return split(jws)
    }

    /// The signature segment as an ES256 signature: 64 bytes, r‖s.
    package var rawSignature: Result<[UInt8], VerificationFailure> {
        guard let signature = Base64URL.decode(signature) else {
            return .failure(VerificationFailure(.verificationFailure, "the JWS signature is not base64url"))
        }
        guard signature.count == 64 else {
            return .failure(VerificationFailure(
                .verificationFailure, "an ES256 signature is 64 bytes (r‖s); this one is \(signature.count) bytes"))
        }
        return .success(signature)
    }

    /// The payload segment's bytes.
    package var payloadBytes: Result<[UInt8], VerificationFailure> {
        guard let bytes = Base64URL.decode(payload) else {
            return .failure(VerificationFailure(.verificationFailure, "the JWS payload is not base64url"))
        }
        return .success(bytes)
    }

    /// The failure for a well-formed signature that the leaf's key does not verify.
    package static let signatureMismatch = VerificationFailure(
        .verificationFailure, "the ES256 signature does not match the header and payload for the leaf certificate's key")

    /// Offsets of the first (at most four) `.` in `bytes`, found with `memchr`.
    package static func dotOffsets(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
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
    package func trimmingWhitespace() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        let start = firstIndex { !isSpace($0) } ?? endIndex
        let end = lastIndex { !isSpace($0) }.map(index(after:)) ?? start
        return self[start..<Swift.max(start, end)]
    }
}
