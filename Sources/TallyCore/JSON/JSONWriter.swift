import Foundation

/// Writes JSON straight into UTF-8 bytes, in the order the fields are given (the order docs/server.md
/// shows). Values are written with ``string(_:)-(String)``, ``decimal(_:)``, …; commas are placed automatically.
public struct JSONWriter: Sendable {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8] = []
    private var isFirst: [Bool] = [true]
    private var afterKey = false

    /// An empty writer.
    public init() {
        bytes.reserveCapacity(512)
    }

    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        if isFirst[isFirst.count - 1] {
            isFirst[isFirst.count - 1] = false
        } else {
            bytes.append(UInt8(ascii: ","))
        }
    }

    /// Starts an object (`{`).
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        isFirst.append(true)
    }

    /// Ends the current object (`}`).
    public mutating func endObject() {
        isFirst.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    /// Starts an array (`[`).
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        isFirst.append(true)
    }

    /// Ends the current array (`]`).
    public mutating func endArray() {
        isFirst.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes an object key; the next value belongs to it.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
    }

    /// Writes a string value, or null.
    public mutating func string(_ value: String?) {
        guard let value else { return null() }
        string(value)
    }

    /// Writes an exact decimal number (`110`, `0.5`).
    public mutating func decimal(_ value: Decimal) {
        separate()
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Writes an integer.
    public mutating func integer(_ value: Int) {
        integer(Int64(value))
    }

    /// Writes a 64-bit integer, digit by digit (no intermediate `String`).
    public mutating func integer(_ value: Int64) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let first = bytes.count
        var magnitude = value.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[first...].reverse()
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes a date as ISO 8601 UTC with milliseconds, or null.
    public mutating func date(_ value: Date?) {
        guard let value else { return null() }
        string(ISO8601Milliseconds.string(value))
    }

    /// Writes already-encoded JSON as one value.
    public mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
    }

    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // The usual text needs no escape: one copy of its bytes instead of one append each.
        let copied = text.utf8.withContiguousStorageIfAvailable { run -> Bool in
            guard !run.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            bytes.append(contentsOf: run)
            return true
        } ?? false
        if copied {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
