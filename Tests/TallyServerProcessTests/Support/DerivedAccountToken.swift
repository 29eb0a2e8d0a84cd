import Foundation

/// The `appAccountToken` engines before issue 27 set on every purchase: a UUIDv8 of the 128-bit FNV-1a of
/// `"tally.appAccountToken:" + appUserId`, which anyone who knows the `appUserId` computes (the attacker's input).
enum DerivedAccountToken {
    static func of(_ appUserId: String) -> String {
        var high: UInt64 = 0x6C62_272E_07BB_0142, low: UInt64 = 0x62B8_2175_6295_C58D
        for byte in "tally.appAccountToken:\(appUserId)".utf8 {
            low ^= UInt64(byte)
            let (carry, product) = low.multipliedFullWidth(by: 0x13B)
            high = (high &* 0x13B &+ carry) &+ (low << 24)
            low = product
        }
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                           bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            .uuidString.lowercased()
    }
}
