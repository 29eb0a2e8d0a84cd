import TallyCore

/// A verified renewal info and the `signedRenewalInfo` it came as.
public struct StoredRenewalInfo: Sendable, Hashable {
    /// The verified payload.
    public var renewalInfo: RenewalInfo
    /// The JWS as received.
    public var signedRenewalInfo: String?

    /// Creates one.
    public init(renewalInfo: RenewalInfo, signedRenewalInfo: String?) {
        self.renewalInfo = renewalInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}
