import Foundation
import TallyCore

/// A customer's history as items: transactions, ledger entries and ownership transfers.
enum HistoryItems {
    /// Every item of `record`, newest first; the ledger is computed through `now`.
    static func all(_ record: CustomerRecord, catalog: Catalog, configuration: AppConfiguration,
                    now: Date) -> [HistoryItem] {
        var items: [HistoryItem] = []
        items.reserveCapacity(record.transactions.count * 2 + record.spends.count + record.transfers.count)
        for stored in record.transactions { items.append(transaction(stored)) }
        let ledger = Ledger(history: record.purchaseHistory, catalog: catalog, configuration: configuration,
                            through: now)
        for entry in ledger.entries { items.append(ledgerEntry(entry)) }
        for (index, transfer) in record.transfers.enumerated() { items.append(self.transfer(transfer, index: index)) }
        items.sort { $0.precedes($1) }
        return items
    }

    private static func transaction(_ stored: StoredTransaction) -> HistoryItem {
        let transaction = stored.transaction
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("kind")
        writer.string("transaction")
        writer.key("date")
        writer.date(transaction.purchaseDate)
        writer.key("transactionId")
        writer.string(transaction.transactionId)
        writer.key("originalTransactionId")
        writer.string(transaction.originalTransactionId)
        writer.key("productId")
        writer.string(transaction.productId)
        writer.key("type")
        writer.string(transaction.type.rawValue)
        writer.key("quantity")
        writer.integer(transaction.quantity)
        writer.key("revocationDate")
        writer.date(transaction.revocationDate)
        writer.key("source")
        writer.string(stored.source.rawValue)
        writer.endObject()
        return HistoryItem(milliseconds: transaction.purchaseDate.millisecondsSince1970,
                           sortId: "transaction:" + transaction.transactionId, json: writer.bytes)
    }

    private static func ledgerEntry(_ entry: LedgerEntry) -> HistoryItem {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("kind")
        writer.string("ledger")
        writer.key("date")
        writer.date(entry.date)
        writer.key("id")
        writer.string(entry.id)
        writer.key("entry")
        writer.string(entry.kind.rawValue)
        writer.key("currency")
        writer.string(entry.currency)
        writer.key("amount")
        writer.decimal(entry.amount)
        writer.key("transactionId")
        writer.string(entry.transactionId)
        writer.endObject()
        return HistoryItem(milliseconds: entry.date.millisecondsSince1970, sortId: "ledger:" + entry.id,
                           json: writer.bytes)
    }

    private static func transfer(_ transfer: OwnershipTransfer, index: Int) -> HistoryItem {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("kind")
        writer.string("transfer")
        writer.key("date")
        writer.date(transfer.date)
        writer.key("originalTransactionId")
        writer.string(transfer.originalTransactionId)
        writer.key("fromAppUserId")
        writer.string(transfer.fromAppUserId)
        writer.key("toAppUserId")
        writer.string(transfer.toAppUserId)
        writer.endObject()
        let number = String(index)
        return HistoryItem(milliseconds: transfer.date.millisecondsSince1970,
                           sortId: "transfer:" + String(repeating: "0", count: max(0, 10 - number.count)) + number,
                           json: writer.bytes)
    }
}
