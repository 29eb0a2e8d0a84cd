/// Validates UTF-8 before text is decoded, so bytes that are not UTF-8 are refused instead of being
/// replaced with U+FFFD.
public enum UTF8Check {
    /// Whether `bytes` is well-formed UTF-8.
    public static func isValid(_ bytes: some Sequence<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
