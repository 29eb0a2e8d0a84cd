import TallyCore


/// A subscription chain's renewal information as a backend delivers it: the info with its signed form.
public struct SignedRenewalInfo: Sendable, Hashable {
    /// The renewal information, as the backend decoded it. The engine keeps the payload it verifies, not this.
    public var renewalInfo: RenewalInfo
    /// The signed form as the store gave it (a compact JWS: StoreKit's `RenewalInfo.jwsRepresentation`, the
    /// App Store's `signedRenewalInfo`).
    public var jwsRepresentation: String

    /// Creates a signed renewal info.
    public init(renewalInfo: RenewalInfo, jwsRepresentation: String) {
        self.renewalInfo = renewalInfo
        self.jwsRepresentation = jwsRepresentation
    }
}
