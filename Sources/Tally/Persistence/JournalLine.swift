import Foundation


/// The journal's line format: 8 lowercase hex digits of the CRC-32 of the JSON, a space, the JSON of one
/// ``JournalEntry``, a newline. A line whose checksum does not match, or without its newline, is never data.
enum JournalLine {
    /// The bytes of one line for `entry`.
    static func encode(_ entry: JournalEntry, with encoder: JSONEncoder) throws(StoreError) -> Data {
        let json: Data
        do { json = try encoder.encode(entry) } catch {
            throw StoreError(.storage, "cannot encode a journal entry: \(error)")
        }
        let checksum = String(CRC32.checksum(json), radix: 16)
        var line = Data((String(repeating: "0", count: 8 - checksum.count) + checksum + " ").utf8)
        line.append(json)
        line.append(0x0A)
        return line
    }

    /// The entry in one line (without its newline), or nil when the checksum or the JSON is wrong.
    static func decode(_ line: Data.SubSequence, with decoder: JSONDecoder) -> JournalEntry? {
        guard line.count > 9, line[line.startIndex + 8] == 0x20,
              let expected = UInt32(String(decoding: line.prefix(8), as: UTF8.self), radix: 16) else { return nil }
        let json = line.dropFirst(9)
        guard CRC32.checksum(json) == expected else { return nil }
        return try? decoder.decode(JournalEntry.self, from: Data(json))
    }
}
