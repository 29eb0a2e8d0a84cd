/// Base64url without padding (RFC 7515 §2), as JWS segments use it.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Decodes `text`; nil if it holds a character outside the base64url alphabet or an impossible length.
    /// Trailing `=` padding is tolerated.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(bytes: $0) }) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer { decode(bytes: $0) }
    }

    /// Decodes base64url `bytes` (ASCII); nil on a character outside the alphabet or an impossible length.
    public static func decode(bytes input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var count = input.count
        while count > 0, input[count - 1] == UInt8(ascii: "=") { count -= 1 }
        if count % 4 == 1 { return nil }
        let outputCount = count * 3 / 4
        return table.withUnsafeBufferPointer { table -> [UInt8]? in
            var valid = true
            let output = [UInt8](unsafeUninitializedCapacity: outputCount) { out, initialized in
                // Four characters make three bytes; any character outside the alphabet has the 0x80 bit of its
                // table entry (0xFF) set, so one OR over the four says whether all were valid.
                let whole = count / 4
                var read = 0, written = 0
                for _ in 0..<whole {
                    let a = table[Int(input[read])], b = table[Int(input[read + 1])]
                    let c = table[Int(input[read + 2])], d = table[Int(input[read + 3])]
                    guard (a | b | c | d) & 0x80 == 0 else {
                        valid = false
                        break
                    }
                    let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    out[written] = UInt8(truncatingIfNeeded: group >> 16)
                    out[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    out[written + 2] = UInt8(truncatingIfNeeded: group)
                    read += 4
                    written += 3
                }
                // The last 2 or 3 characters make 1 or 2 bytes (their spare low bits are ignored).
                if valid, read < count {
                    var group: UInt32 = 0
                    for index in read..<count {
                        let value = table[Int(input[index])]
                        if value & 0x80 != 0 {
                            valid = false
                            break
                        }
                        group = group << 6 | UInt32(value)
                    }
                    if valid {
                        let tail = count - read
                        group <<= UInt32(6 * (4 - tail))
                        out[written] = UInt8(truncatingIfNeeded: group >> 16)
                        written += 1
                        if tail == 3 {
                            out[written] = UInt8(truncatingIfNeeded: group >> 8)
                            written += 1
                        }
                    }
                }
                initialized = valid ? written : 0
            }
            return valid ? output : nil
        }
    }

    /// Encodes `bytes` without padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in bytes {
            accumulator = (accumulator << 8) | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                output.append(alphabet[Int((accumulator >> UInt32(bits)) & 0x3F)])
            }
        }
        if bits > 0 { output.append(alphabet[Int((accumulator << UInt32(6 - bits)) & 0x3F)]) }
        return String(decoding: output, as: UTF8.self)
    }
}
