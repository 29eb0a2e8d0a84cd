import Foundation


extension Catalog {
    /// Reads an Xcode StoreKit configuration file (JSON). `fileName` names the file in error messages.
    ///
    /// Throws ``TallyError`` (`invalidConfiguration`) naming the file and the JSON path of the bad key
    /// (`Shop.storekit: products[3].type 'Sub' is not one of …`); tolerated oddities go to ``warnings``.
    public init(storeKitData data: Data, fileName: String) throws(TallyError) {
        self = try StoreKitReader.catalog(from: data, fileName: fileName)
    }
}
