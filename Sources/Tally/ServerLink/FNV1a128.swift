/// The 128-bit FNV-1a hash (Fowler–Noll–Vo, offset basis and prime of the reference): a fast, non-cryptographic
/// hash, used only to derive a stable identifier (``ServerLink/appAccountToken(for:)``), never for security.
enum FNV1a128 {
    /// The hash of `bytes`, big-endian.
    static func hash(_ bytes: [UInt8]) -> [UInt8] {
        // 128-bit arithmetic as two 64-bit halves: h = (h ^ byte) * prime mod 2^128,
        // prime = 2^88 + 0x13B, so h * prime = (h << 88) + h * 0x13B.
        var high: UInt64 = 0x6C62_272E_07BB_0142, low: UInt64 = 0x62B8_2175_6295_C58D
        for byte in bytes {
            low ^= UInt64(byte)
            let (lowCarry, lowProduct) = low.multipliedFullWidth(by: 0x13B)
            let highProduct = high &* 0x13B &+ lowCarry
            // (h << 88): only low's lowest 40 bits reach the high half.
            high = highProduct &+ (low << 24)
            low = lowProduct
        }
        return (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
    }
}
