/// The order ID Apple prints on the customer's emailed receipt and purchase history (Look Up Order ID,
/// ../shared/docs/app-store-server-api.md §4.4): ten upper-case letters and digits such as `MK5TTTVWJH`. The
/// sandbox gives every transaction one of its own (a renewal is a new order, as Apple mails a receipt for it),
/// made from the transaction id by a fixed bijection, so two transactions never share one; it is kept with the
/// transaction in `sandbox.sqlite` (`transactions.order_id`).
public enum SandboxOrderId {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    /// 36⁹: the space of the nine characters after the leading `M`.
    private static let space: UInt64 = 101_559_956_668_416
    /// Odd and not a multiple of 3, so multiplying by it modulo ``space`` is a bijection.
    private static let multiplier: UInt64 = 25_214_903_917

    /// The order ID of the transaction `transactionId` (a digit string, as the sandbox makes them).
    public static func of(transactionId: String) -> String {
        let number = UInt64(transactionId) ?? UInt64(truncatingIfNeeded: transactionId.hashValue)
        let product = (number % space).multipliedFullWidth(by: multiplier)
        var value = space.dividingFullWidth((product.high, product.low)).remainder
        var characters = [UInt8](repeating: alphabet[0], count: 9)
        for index in stride(from: 8, through: 0, by: -1) {
            characters[index] = alphabet[Int(value % 36)]
            value /= 36
        }
        return "M" + String(decoding: characters, as: UTF8.self)
    }

    /// Whether `text` has the shape of an order ID (1–32 letters and digits); anything else is Apple's 400.
    public static func isWellFormed(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 32 && text.utf8.allSatisfy { alphabet.contains($0) || (97...122).contains($0) }
    }
}
