import Foundation
import TallyCore

extension Sandbox {
    /// The account's purchase intents (`tally sandbox promote`), oldest first.
    public func purchaseIntents(account: String = "default") -> [SandboxPurchaseIntent] {
        accounts[account]?.purchaseIntents ?? []
    }

    /// The customer chooses `productId` in the App Store: a purchase intent waiting for the account's app.
    public mutating func promote(_ productId: String, account: String = "default") throws(SandboxError)
        -> SandboxPurchaseIntent {
        guard productIndex[productId] != nil else {
            throw SandboxError(.unknownProduct, "product '\(productId)' is not in the store's catalog: check the id against the .storekit file")
        }
        let number = purchaseIntents(account: account).count + 1
        let intent = SandboxPurchaseIntent(id: "intent-\(number)", productId: productId, date: now)
        withAccount(account) { $0.purchaseIntents.append(intent) }
        return intent
    }

    /// Hands the account's intents no app took yet to the app, marking them taken: each is delivered once.
    public mutating func takePurchaseIntents(account: String = "default") -> [SandboxPurchaseIntent] {
        take(\.purchaseIntents, delivered: \.deliveredDate, account: account)
    }

    /// The account's App Store messages (`tally sandbox message`), oldest first.
    public func messages(account: String = "default") -> [SandboxMessage] {
        accounts[account]?.messages ?? []
    }

    /// The App Store has a message for the account's customer.
    public mutating func sendMessage(_ reason: SandboxMessage.Reason, account: String = "default") -> SandboxMessage {
        let message = SandboxMessage(id: "message-\(messages(account: account).count + 1)", reason: reason, date: now)
        withAccount(account) { $0.messages.append(message) }
        return message
    }

    /// Hands the account's messages no app took yet to the app, marking them taken: each is delivered once.
    public mutating func takeMessages(account: String = "default") -> [SandboxMessage] {
        take(\.messages, delivered: \.deliveredDate, account: account)
    }

    /// The elements of one of the account's lists whose `delivered` date is nil, now dated: each is taken once.
    private mutating func take<Element>(_ list: WritableKeyPath<AccountRecord, [Element]>,
                                        delivered: WritableKeyPath<Element, Date?>, account: String) -> [Element] {
        let now = self.now
        return withAccount(account) { record in
            var taken: [Element] = []
            for index in record[keyPath: list].indices where record[keyPath: list][index][keyPath: delivered] == nil {
                record[keyPath: list][index][keyPath: delivered] = now
                taken.append(record[keyPath: list][index])
            }
            return taken
        }
    }

    /// The app shows a message it was handed.
    public mutating func displayMessage(_ id: String, account: String = "default") throws(SandboxError) -> SandboxMessage {
        guard let index = messages(account: account).firstIndex(where: { $0.id == id }) else {
            throw SandboxError(.invalidRequest, "no message '\(id)' for account '\(account)': list them with 'tally sandbox message --account \(account)'")
        }
        let message = messages(account: account)[index]
        guard message.deliveredDate != nil else {
            throw SandboxError(.invalidRequest, "message '\(id)' was not delivered to an app yet")
        }
        guard message.displayedDate == nil else {
            throw SandboxError(.alreadyResolved, "message '\(id)' was shown already")
        }
        let now = self.now
        return withAccount(account) { record in
            record.messages[index].displayedDate = now
            return record.messages[index]
        }
    }

    /// The App Store sheets the account's apps showed, oldest first.
    public func sheetCalls(account: String = "default") -> [SandboxSheetCall] {
        accounts[account]?.sheetCalls ?? []
    }

    /// Records a sheet an app showed.
    @discardableResult
    public mutating func recordSheet(_ sheet: SandboxSheetCall.Sheet, account: String = "default",
                                     device: String = "default", subscriptionGroupId: String? = nil) -> SandboxSheetCall {
        let call = SandboxSheetCall(sheet: sheet, date: now, device: device, subscriptionGroupId: subscriptionGroupId)
        withAccount(account) { $0.sheetCalls.append(call) }
        return call
    }
}
