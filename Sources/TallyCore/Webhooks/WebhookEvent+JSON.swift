import Foundation

extension WebhookEvent {
    /// The event's JSON body, fields in docs/webhooks.md's order, numbers exact, dates ISO 8601 UTC with
    /// milliseconds; absent values are `null`.
    public var json: [UInt8] {
        JSONWriter.object { writer in
            writer.field("id", id)
            writer.field("type", type.rawValue)
            writer.field("appUserId", appUserId)
            writer.field("aliases", aliases)
            writer.field("productId", productId)
            if type == .productChange { writer.field("previousProductId", previousProductId) }
            writer.field("entitlementIds", entitlementIds)
            writer.field("transactionId", transactionId)
            writer.field("originalTransactionId", originalTransactionId)
            writer.field("environment", environment)
            writer.field("store", store)
            writer.field("eventAt", eventAt)
            writer.field("expiresAt", expiresAt)
            writer.key("price")
            if let price { writer.decimal(price) } else { writer.null() }
            writer.field("currency", currency)
            if type == .virtualCurrencyTransaction {
                writer.objects("virtualCurrency", virtualCurrency) { writer, change in
                    writer.field("code", change.code)
                    writer.field("amount", change.amount)
                }
            }
            if type == .transfer {
                writer.field("transferredFrom", transferredFrom)
                writer.field("transferredTo", transferredTo)
            }
            writer.key("attributes")
            writer.object { writer in
                for name in attributes.keys.sorted() { writer.field(name, attributes[name]) }
            }
        }
    }

    /// Reads an event back from ``json``; nil for anything else (a missing or mistyped field, an unknown type).
    /// Numbers are read by Foundation's `JSONDecoder` as `Decimal` from their digits, so a price reads back exactly.
    public init?(json bytes: some Collection<UInt8>) {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard let date = formatter.date(from: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not ISO 8601"))
            }
            return date
        }
        guard let body = try? decoder.decode(Body.self, from: Data(bytes)),
              let type = WebhookEventType(name: body.type) else { return nil }
        self.init(id: body.id, type: type, appUserId: body.appUserId, aliases: body.aliases,
                  productId: body.productId, previousProductId: body.previousProductId,
                  entitlementIds: body.entitlementIds, transactionId: body.transactionId,
                  originalTransactionId: body.originalTransactionId, environment: body.environment, store: body.store,
                  eventAt: body.eventAt, expiresAt: body.expiresAt, price: body.price, currency: body.currency,
                  virtualCurrency: (body.virtualCurrency ?? []).map { WebhookCurrencyChange(code: $0.code, amount: $0.amount) },
                  transferredFrom: body.transferredFrom, transferredTo: body.transferredTo,
                  attributes: body.attributes)
    }

    /// The JSON's shape, for decoding.
    private struct Body: Decodable {
        struct Change: Decodable {
            var code: String
            var amount: Decimal
        }

        var id: String
        var type: String
        var appUserId: String
        var aliases: [String]
        var productId: String?
        var previousProductId: String?
        var entitlementIds: [String]
        var transactionId: String?
        var originalTransactionId: String?
        var environment: String?
        var store: String
        var eventAt: Date
        var expiresAt: Date?
        var price: Decimal?
        var currency: String?
        var virtualCurrency: [Change]?
        var transferredFrom: String?
        var transferredTo: String?
        var attributes: [String: String]
    }
}
