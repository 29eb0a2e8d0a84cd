/// The kind of offer a transaction used (`offerType`).
///
/// Values Tally does not know are kept as they are, never dropped.
public struct OfferType: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value as Apple writes it.
    public var rawValue: Int
    /// Wraps a raw value, known or not.
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }

    /// An introductory offer.
    public static let introductory = OfferType(rawValue: 1)
    /// A promotional offer.
    public static let promotional = OfferType(rawValue: 2)
    /// An offer code.
    public static let offerCode = OfferType(rawValue: 3)
    /// A win-back offer.
    public static let winBack = OfferType(rawValue: 4)
}
