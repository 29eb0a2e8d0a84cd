import Foundation
import TallyCore
import TallyStorage

/// A customer's history as items: transactions, ledger entries, ownership transfers and notifications.
enum HistoryItems {
    /// Every item of `record` and its `aliases`, newest first; the ledger is computed through `now`.
    static func all(_ record: CustomerRecord, aliases: [CustomerAlias] = [], catalog: Catalog,
                    configuration: AppConfiguration, now: Date) -> [HistoryItem] {
        var items: [HistoryItem] = []
        items.reserveCapacity(record.transactions.count * 2 + record.spends.count + record.transfers.count)
        for stored in record.transactions { items.append(transaction(stored)) }
        let ledger = Ledger(history: record.purchaseHistory, catalog: catalog, configuration: configuration,
                            through: now)
        for entry in ledger.entries { items.append(ledgerEntry(entry)) }
        for (index, transfer) in record.transfers.enumerated() { items.append(self.transfer(transfer, index: index)) }
        for entry in record.notifications { items.append(notification(entry)) }
        for alias in aliases { items.append(self.alias(alias)) }
        items.sort { $0.precedes($1) }
        return items
    }

    /// An item of `kind` at `date`: `kind` and `date` first, then what `fields` writes; its sort id is
    /// `kind:id`.
    private static func item(_ kind: String, date: Date, id: String,
                             _ fields: (inout JSONWriter) -> Void) -> HistoryItem {
        let json = JSONWriter.object { writer in
            writer.field("kind", kind)
            writer.field("date", date)
            fields(&writer)
        }
        return HistoryItem(milliseconds: date.millisecondsSince1970, sortId: kind + ":" + id, json: json)
    }

    private static func transaction(_ stored: StoredTransaction) -> HistoryItem {
        let transaction = stored.transaction
        return item("transaction", date: transaction.purchaseDate, id: transaction.transactionId) { writer in
            writer.field("transactionId", transaction.transactionId)
            writer.field("originalTransactionId", transaction.originalTransactionId)
            writer.field("productId", transaction.productId)
            writer.field("type", transaction.type.rawValue)
            writer.field("quantity", transaction.quantity)
            writer.field("revocationDate", transaction.revocationDate)
            writer.field("source", stored.source.rawValue)
        }
    }

    private static func ledgerEntry(_ entry: LedgerEntry) -> HistoryItem {
        item("ledger", date: entry.date, id: entry.id) { writer in
            writer.field("id", entry.id)
            writer.field("entry", entry.kind.rawValue)
            writer.field("currency", entry.currency)
            writer.field("amount", entry.amount)
            writer.field("transactionId", entry.transactionId)
        }
    }

    private static func transfer(_ transfer: OwnershipTransfer, index: Int) -> HistoryItem {
        let number = String(index)
        let id = String(repeating: "0", count: max(0, 10 - number.count)) + number
        return item("transfer", date: transfer.date, id: id) { writer in
            writer.field("originalTransactionId", transfer.originalTransactionId)
            writer.field("fromAppUserId", transfer.fromAppUserId)
            writer.field("toAppUserId", transfer.toAppUserId)
        }
    }

    /// The moment an anonymous id became an alias of the customer (and its purchases moved here).
    private static func alias(_ alias: CustomerAlias) -> HistoryItem {
        item("alias", date: alias.created, id: alias.alias) { writer in writer.field("alias", alias.alias) }
    }

    private static func notification(_ entry: NotificationEntry) -> HistoryItem {
        item("notification", date: entry.signedDate, id: entry.notificationUUID) { writer in
            writer.field("type", entry.notificationType)
            writer.field("subtype", entry.subtype)
            writer.field("notificationUUID", entry.notificationUUID)
            writer.field("originalTransactionId", entry.originalTransactionId)
            writer.field("result", entry.result.rawValue)
        }
    }
}
