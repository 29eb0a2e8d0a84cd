import Foundation
import Tally
import TallyCore

extension MarketSession {
    /// Runs one market command (`["buy", "market.coins.10"]`) and returns its exit code; problems are
    /// printed to standard error.
    func execute(_ words: [String], json: Bool) async -> Int32 {
        guard let name = words.first else { return ExitCode.ok }
        do {
            let arguments = try Arguments(words.dropFirst(), flags: ["json", "intro-eligibility"], options: ["quantity", "placement", "offer", "win-back"])
            let json = json || arguments.flag("json")
            switch name {
            case "products": return try await products(json: json)
            case "status": return try await status(json: json)
            case "buy": return try await buy(arguments, json: json)
            case "restore": return try await restore(json: json)
            case "spend": return try await spend(arguments, json: json)
            case "login": return try await login(arguments, json: json)
            case "logout": return try await logout(json: json)
            case "attributes": return try await attributes(arguments, json: json)
            case "offerings": return try await offerings(arguments, json: json)
            case "help", "--help", "-h":
                Console.line(MarketHelp.commands)
                return ExitCode.ok
            default:
                throw UsageError("unknown command '\(name)'; commands: products, status, buy, restore, spend, login, logout, attributes, offerings, help, quit")
            }
        } catch let error as UsageError {
            Output.error("market \(name): \(error.message)")
            return ExitCode.usage
        } catch let error as StoreError {
            Output.error("market \(name): \(error.message)")
            return error.code == .invalidValue ? ExitCode.usage : ExitCode.refused
        } catch {
            Output.error("market \(name): \(error)")
            return ExitCode.refused
        }
    }

    func products(json: Bool) async throws -> Int32 {
        let found = try await store.products(store.catalog.products.map(\.id))
        let rows = found.products.map { ProductRow($0.product, locale: locale) }
        if json {
            Console.line(try Output.json(SandboxProducts.ProductList(products: rows, invalidIdentifiers: found.invalidProductIds)))
        } else {
            for row in rows {
                let period = row.subscription.map { " / \($0.period)" } ?? ""
                Console.line("\(row.id)  \(row.displayPrice)\(period)  \(row.displayName)")
            }
        }
        return ExitCode.ok
    }

    func status(json: Bool) async throws -> Int32 {
        let state = await MarketSession.currentState(of: store)
        let canMakePayments: Bool? = await store.canMakePayments
        var view = MarketStatus(state: state, configuration: store.configuration,
                                pending: await store.pendingPurchases, options: options,
                                canMakePayments: canMakePayments, history: await store.history)
        if let link = options.link {
            view.server = MarketStatus.ServerView(url: link.url.absoluteString,
                                                  appUserId: await store.serverLink?.appUserId ?? link.appUserId ?? "",
                                                  stateSource: await store.stateSource.rawValue,
                                                  serverStateDate: await store.serverStateDate,
                                                  problem: await store.serverProblem.map(MarketStatus.Problem.init))
        }
        Console.line(json ? try view.json() : view.text)
        return ExitCode.ok
    }

    /// `restore`: 0 restored (also when nothing came back), 1 cancelled or failed.
    func restore(json: Bool) async throws -> Int32 {
        let restored: [StoreTransaction]
        do {
            restored = try await store.restore()
        } catch {
            guard error.code == .cancelled else { throw error }
            let message = "the restore was cancelled; nothing changed"
            if json {
                Console.line(try Output.json(RestoreReport(outcome: "cancelled", restored: [], error: message,
                                                           errorCode: error.code.rawValue)))
            } else {
                Console.line("Cancelled: \(message)")
            }
            return ExitCode.refused
        }
        if json {
            let items = restored.map { RestoreReport.Item(productId: $0.productId, transactionId: $0.transactionId) }
            Console.line(try Output.json(RestoreReport(outcome: "restored", restored: items)))
        } else if restored.isEmpty {
            Console.line("Nothing to restore")
        } else {
            for transaction in restored {
                Console.line("Restored \(transaction.productId) (transaction \(transaction.transactionId))")
            }
        }
        return ExitCode.ok
    }

    /// The answer to `restore --json`: `{"outcome":"restored|cancelled","restored":[…],"error","errorCode"}`.
    private struct RestoreReport: Encodable {
        struct Item: Encodable {
            var productId: String
            var transactionId: String
        }

        var outcome: String
        var restored: [Item]
        var error: String?
        var errorCode: String?
    }

    func spend(_ arguments: Arguments, json: Bool) async throws -> Int32 {
        let currency = try arguments.positional(0, "CURRENCY (e.g. coins)")
        let text = try arguments.positional(1, "AMOUNT")
        guard let amount = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), amount > 0,
              text.allSatisfy({ $0.isNumber || $0 == "." }) else {
            throw UsageError("AMOUNT must be a number above zero, not '\(text)'")
        }
        guard store.configuration.currencies[currency] != nil else {
            throw UsageError("unknown currency '\(currency)'; tally.json has "
                + store.configuration.currencies.keys.sorted().joined(separator: ", "))
        }
        if options.link != nil { return try await spendThroughBackend(amount, of: currency, json: json) }
        let refusal: StoreError?
        do {
            try await store.spend(amount, of: currency, id: UUID().uuidString)
            refusal = nil
        } catch {
            refusal = error
        }
        if let refusal {
            guard refusal.code == .insufficientBalance else { throw refusal }
            let balance = await store.balance(currency)
            let message = "Refused: \(amount) \(currency) is more than the balance of \(balance)"
            if json { Console.line(try Output.json(SpendReport(outcome: "refused", balance: balance, error: message))) }
            Output.error(message)
            return ExitCode.refused
        }
        let balance = await store.balance(currency)
        if json {
            Console.line(try Output.json(SpendReport(outcome: "spent", balance: balance, error: nil)))
        } else {
            Console.line("Spent \(amount) \(Self.unit(currency, amount)); \(currency.uppercased()): \(balance)")
        }
        return ExitCode.ok
    }

    /// The currency's name for `amount` of it: `1 coin`, `2 coins`, `0.5 coins`.
    static func unit(_ currency: String, _ amount: Decimal) -> String {
        amount == 1 && currency.count > 1 && currency.hasSuffix("s") ? String(currency.dropLast()) : currency
    }

    /// `spend --json`: `{"outcome":"spent|refused","balance":n,"error"}`.
    struct SpendReport: Encodable {
        var outcome: String
        var balance: Decimal
        var error: String?
    }
}

extension MarketSession {
    /// The state with the store's current renewal info (auto-renew, scheduled downgrade, billing retry); when
    /// the sandbox cannot answer, says so on standard error and shows the state from the customer file.
    static func currentState(of store: Store, quiet: Bool = false) async -> CustomerState {
        do {
            return try await store.refreshSubscriptionStatus()
        } catch {
            if !quiet { Output.error("note: subscription status not refreshed (\(error.message)); showing the saved state") }
            return await store.refresh()
        }
    }
}
