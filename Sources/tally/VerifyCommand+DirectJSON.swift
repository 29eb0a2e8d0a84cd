import Foundation
import TallyCore
import TallyServer
import TallyVerify

extension VerifyCommand {
    /// A verified transaction's answer written straight into bytes: the same JSON value ``render(_:encoder:)``
    /// writes through `JSONEncoder` (keys sorted, dates as milliseconds, absent fields left out), at a fraction
    /// of its cost, for `--lines`. nil for every other answer, and for a transaction carrying fields kept as
    /// raw JSON (unknown fields, `commitmentInfo`, `advancedCommerceInfo`): those go through `JSONEncoder`.
    static func directJSON(_ answer: Answer) -> [UInt8]? {
        guard case .valid(.transaction(let t)) = answer, TransactionPayloadJSON.isDirect(t) else { return nil }
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("kind")
        writer.string(SignedPayloadKind.transaction.rawValue)
        writer.key("payload")
        writer.beginObject()
        TransactionPayloadJSON.writeFields(of: t, into: &writer)
        writer.endObject()
        writer.key("valid")
        writer.bool(true)
        writer.endObject()
        return writer.bytes
    }
}
