extension HTTPRequest {
    /// The token of an `Authorization: Bearer <token>` header (RFC 6750): the scheme in any case, spaces or
    /// tabs around the token ignored; nil when the header is missing, has another scheme, or no token.
    /// It scans ASCII bytes only (no Foundation), as it runs on every authenticated request.
    public var bearerToken: String? {
        guard let value = headers["authorization"] else { return nil }
        return Self.bearerToken(fromAuthorization: value)
    }

    /// The token in an `Authorization` header value, as ``bearerToken`` reads it.
    public static func bearerToken(fromAuthorization value: String) -> String? {
        let bytes = value.utf8
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let start = bytes.firstIndex(where: { !isBlank($0) }),
            let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return nil }
        let trimmed = bytes[start...last]
        let scheme = "bearer".utf8
        guard trimmed.count > scheme.count + 1,
            trimmed.prefix(scheme.count).elementsEqual(scheme, by: { $0 | 0x20 == $1 }),
            isBlank(trimmed[trimmed.index(trimmed.startIndex, offsetBy: scheme.count)])
        else { return nil }
        let rest = trimmed.dropFirst(scheme.count)
        guard let tokenStart = rest.firstIndex(where: { !isBlank($0) }) else { return nil }
        return String(Substring(value.utf8[tokenStart...last]))
    }
}
