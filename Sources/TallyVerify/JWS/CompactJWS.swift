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
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            return .failure(VerificationFailure(
                .verificationFailure,
                "a compact JWS has 3 dot-separated parts (header.payload.signature); this input has \(parts.count)"))
        }
        guard !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            return .failure(VerificationFailure(.verificationFailure, "a JWS part is empty"))
        }
        let signingInput = trimmed[parts[0].startIndex..<parts[1].endIndex]
        return .success(CompactJWS(header: parts[0], payload: parts[1], signature: parts[2], signingInput: signingInput))
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
