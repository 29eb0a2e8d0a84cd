/// A string's UTF-8 bytes as a dictionary key. Swift's `String` compares and hashes by canonical
/// equivalence, so `café` spelled NFC and NFD would share one slot; customer ids, key names and addresses
/// are different when their bytes differ, so maps keyed by them use this instead.
///
/// Internal stand-in until TallyCore's byte-keyed id type can be used here.
struct UTF8Key: Sendable, Hashable {
    /// The UTF-8 bytes.
    let bytes: [UInt8]

    /// The key of `text`'s UTF-8 bytes, exactly as they are (no normalisation).
    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The key of these bytes.
    init(bytes: [UInt8]) {
        self.bytes = bytes
    }
}
