import Foundation
import TallyCore
import TallyHTTP
import TallyStorage

extension EntitlementAPI {
    /// The longest spend `id` accepted, in UTF-8 bytes.
    static let maxSpendIdBytes = 256

    /// `POST /v1/customers/{appUserId}/currencies/{currency}/spend` `{"amount":5,"id":"<client id>"}`.
    func spend(_ appUserId: String, currency: String, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let members = try bodyObject(request, amountField: "amount")
        let id = try requiredString(members, "id")
        guard id.utf8.count <= Self.maxSpendIdBytes else {
            throw .spendIdTooLong("the spend id is \(id.utf8.count) bytes of UTF-8; the limit is \(Self.maxSpendIdBytes)")
        }
        guard let amountValue = members["amount"] else { throw .invalidRequest("the field \"amount\" is missing") }
        guard case .number(let amount) = amountValue else {
            throw .invalidAmount("the amount must be a JSON number above zero, not \(amountValue.typeName)")
        }
        if let problem = Spend.amountProblem(amount) { throw .invalidAmount(problem) }
        let app = configuration.appConfiguration
        guard app.currencies.keys.contains(where: { $0.hasSameBytes(as: currency) }) else {
            throw .unknownCurrency(currency, known: app.currencies.keys.sorted())
        }
        let now = clock.now()
        let ticket = cache.ticket()
        let encoding = offerings.current().encoding
        // The store answers with the state after the spend, judged and encoded inside the spend's transaction.
        let answer = try storeSpend(id: id, currency: currency, amount: amount, for: appUserId, at: now, encoding: encoding)
        let state = answer.state
        cacheWrittenState(StateCache.Entry(version: state.version,
                                           expires: min(state.validUntil, now.addingTimeInterval(cacheMaximumAge)),
                                           body: state.body, factsVersion: answer.factsVersion),
                          for: appUserId, ticket: ticket, now: now)
        let spent = JSONWriter.object { writer in
            writer.field("id", id)
            writer.field("currency", currency)
            writer.field("amount", amount)
            writer.field("outcome", answer.isDuplicate ? "duplicate" : "recorded")
        }
        return APIResponse.json(Self.wrap(("customer", state.body), ("spend", spent)))
    }

    /// Stores the spend if TallyCore's rule admits it against the net the store keeps, atomically with the
    /// balance check; the spend is dated inside the store's write transaction, so spend dates follow the order
    /// they were committed in.
    private func storeSpend(id: String, currency: String, amount: Decimal,
                            for appUserId: String, at now: Date, encoding: StateEncoding) throws(APIError) -> SpendAnswer {
        let app = configuration.appConfiguration
        let clock = self.clock
        do {
            return try noteWrite { () throws(CustomerStoreError) in
                try store.spend(id: id, currency: currency, for: appUserId, at: now, encoding: encoding) {
                    existing, net in
                    let spend = Spend(id: id, currency: currency, amount: amount, date: clock.now())
                    do {
                        try PurchaseHistory.validate(spend, configuration: app)
                        return try spend.admit(existing: existing, available: net) ? spend : nil
                    } catch let error as TallyError {
                        switch error.code {
                        case .insufficientBalance:
                            throw SpendRefusal.insufficientBalance(balance: max(net, 0), message: error.message)
                        case .conflictingId: throw SpendRefusal.conflictingId(error.message)
                        default: throw SpendRefusal.invalid(error.message)
                        }
                    }
                }
            }
        } catch {
            guard error.reason == .refused, let refusal = error.underlying as? SpendRefusal else {
                throw .storeFailure(error)
            }
            switch refusal {
            case .insufficientBalance(let balance, let message): throw .insufficientBalance(balance, message)
            case .conflictingId(let message): throw .conflictingId(message)
            case .invalid(let message): throw .invalidRequest(message)
            }
        }
    }
}
