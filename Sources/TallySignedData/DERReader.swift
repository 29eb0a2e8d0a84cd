/// A strict reader of DER (X.690) elements over hostile bytes: single-byte tags, definite minimal lengths that fit
/// what is left, nothing read past its element. Every malformation is a ``DERError``, never a crash; it never
/// recurses, so nesting cannot exhaust the stack.
package struct DERReader: Sendable {
    /// One element: its tag byte and its content octets.
    package struct Element: Sendable {
        /// The identifier octet (class, constructed bit and tag number).
        package var tag: UInt8
        /// The content octets.
        package var content: ArraySlice<UInt8>

        /// A reader over the content, for a constructed element.
        package var children: DERReader { DERReader(content) }
    }

    /// Longest input read, in bytes: a certificate is a few KB; a JWS is at most 1 MB.
    package static let maximumLength = 1 << 20

    private let bytes: ArraySlice<UInt8>
    private var offset: Int

    /// A reader at the start of `bytes`.
    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.offset = bytes.startIndex
    }

    /// Whether every element has been read.
    package var isAtEnd: Bool { offset >= bytes.endIndex }

    /// The tag of the next element, without reading it; nil at the end.
    package var nextTag: UInt8? { isAtEnd ? nil : bytes[offset] }

    /// Reads the next element.
    package mutating func read() throws(DERError) -> Element {
        guard bytes.count <= Self.maximumLength else { throw DERError("the DER input is longer than 1 MB") }
        guard offset < bytes.endIndex else { throw DERError("a DER element is missing") }
        let tag = bytes[offset]
        guard tag & 0x1F != 0x1F else { throw DERError("a multi-byte DER tag is not allowed here") }
        var cursor = offset + 1
        guard cursor < bytes.endIndex else { throw DERError("a DER length is missing") }
        let first = bytes[cursor]
        cursor += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count > 0 else { throw DERError("an indefinite DER length is not DER") }
            guard count <= 4, bytes.endIndex - cursor >= count else { throw DERError("a DER length is out of range") }
            guard bytes[cursor] != 0 else { throw DERError("a DER length has a leading zero") }
            for byte in bytes[cursor..<cursor + count] { length = length << 8 | Int(byte) }
            cursor += count
            guard length >= 0x80 else { throw DERError("a DER length is not minimally encoded") }
        }
        guard length <= bytes.endIndex - cursor else { throw DERError("a DER element runs past its container") }
        offset = cursor + length
        return Element(tag: tag, content: bytes[cursor..<cursor + length])
    }

    /// Reads the next element, which must carry `tag`.
    package mutating func read(tag: UInt8, _ what: @autoclosure () -> String) throws(DERError) -> Element {
        let element = try read()
        guard element.tag == tag else { throw DERError("\(what()) is not where DER puts it (tag \(element.tag))") }
        return element
    }

    /// Reads the next element when it carries `tag`; nil (and nothing read) otherwise.
    package mutating func readIfPresent(tag: UInt8) throws(DERError) -> Element? {
        guard nextTag == tag else { return nil }
        return try read()
    }

    /// The DER content octets of a dotted OID ("1.2.840.113635.100.6.11.1"); nil if it is not one.
    package static func objectIdentifier(_ dotted: String) -> [UInt8]? {
        let arcs = dotted.split(separator: ".", omittingEmptySubsequences: false).map { UInt64($0) }
        guard arcs.count >= 2, let first = arcs[0], let second = arcs[1], first <= 2, first == 2 || second < 40,
              second <= UInt64.max - 80
        else { return nil }
        var encoded: [UInt8] = []
        for arc in [first * 40 + second] + arcs.dropFirst(2).map({ $0 ?? .max }) {
            guard arc != .max else { return nil }
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            encoded += chunk
        }
        return encoded
    }
}

/// Why DER bytes could not be read.
package struct DERError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is malformed.
    package var message: String
    /// An error saying what is malformed.
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
