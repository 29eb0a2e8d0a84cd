// A SwiftUI view file importing Tally and SwiftUI (not StoreKit): SwiftUI's `Transaction` and `@Environment(\.dismiss)`
// unqualified. Were `Transaction` or `Environment` a name Tally exports, this file would not compile.
import Foundation
import SwiftUI
import Tally
import Testing

/// A sheet that closes without animation, using SwiftUI's `Transaction`, and shows a Tally product.
struct ReceiptSheet: View {
    @Environment(\.dismiss) private var dismiss
    let product: CatalogProduct

    /// The transaction the sheet closes in.
    static var closing: Transaction {
        var transaction = Transaction()
        transaction.disablesAnimations = true
        return transaction
    }

    var body: some View {
        Button("Close \(product.id)") {
            withTransaction(Self.closing) { dismiss() }
        }
    }
}

@Suite("An app importing Tally and SwiftUI")
struct TransactionNameTests {
    @Test("SwiftUI's Transaction and @Environment(\\.dismiss) unqualified beside Tally's StoreTransaction")
    @MainActor
    func swiftUITransactionUnqualified() {
        let product = CatalogProduct(id: "app.premium", kind: .nonConsumable, price: 4.99, currency: "USD")
        let sheet = ReceiptSheet(product: product)
        _ = sheet.body
        #expect(ReceiptSheet.closing.disablesAnimations)
        let sold = StoreTransaction(transactionId: "1", bundleId: "com.example.app", productId: product.id,
                                    purchaseDate: Date(), quantity: 1, type: product.kind.transactionType)
        #expect(sold.productId == "app.premium")
    }
}
