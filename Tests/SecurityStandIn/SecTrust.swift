import Foundation
import TallyCrypto

/// A trust evaluation: certificates to evaluate (leaf first), a policy, anchors and the date to judge them at.
public final class SecTrust {
    let certificates: [SecCertificate]
    var anchors: [SecCertificate] = []
    var anchorsOnly = false
    var verifyDate: Date?
    var networkFetchAllowed = true
    /// The chain the last successful evaluation built, leaf first, anchor last.
    var chain: [SecCertificate]?

    init(certificates: [SecCertificate]) { self.certificates = certificates }
}

/// Creates a trust evaluation of `certificates` (one `SecCertificate` or an array of them, leaf first) under
/// `policies`.
public func SecTrustCreateWithCertificates(
    _ certificates: CFTypeRef, _ policies: CFTypeRef?, _ trust: UnsafeMutablePointer<SecTrust?>
) -> OSStatus {
    let list: [SecCertificate]
    if let one = certificates as? SecCertificate {
        list = [one]
    } else if let many = certificates as? [Any], let typed = many as? [SecCertificate], !typed.isEmpty {
        list = typed
    } else {
        return errSecParam
    }
    trust.pointee = SecTrust(certificates: list)
    return errSecSuccess
}

/// Sets the anchors the evaluation may end at.
public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray) -> OSStatus {
    guard let anchors = anchorCertificates as? [SecCertificate] else { return errSecParam }
    trust.anchors = anchors
    trust.chain = nil
    return errSecSuccess
}

/// Whether only the set anchors are trusted (here: always so; this stand-in has no system anchors).
public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus {
    trust.anchorsOnly = anchorCertificatesOnly
    return errSecSuccess
}

/// Sets the date certificates are judged at (default: now).
public func SecTrustSetVerifyDate(_ trust: SecTrust, _ verifyDate: CFDate) -> OSStatus {
    trust.verifyDate = verifyDate
    trust.chain = nil
    return errSecSuccess
}

/// Whether the evaluation may fetch intermediates or revocation over the network (here: never does).
public func SecTrustSetNetworkFetchAllowed(_ trust: SecTrust, _ allowFetch: Bool) -> OSStatus {
    trust.networkFetchAllowed = allowFetch
    return errSecSuccess
}

/// Evaluates the trust: true when the certificates chain to an anchor at the verify date; otherwise false, with
/// `error` saying why.
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool {
    trust.chain = nil
    guard let store = TrustStore(roots: trust.anchors.map(\.certificate)) else {
        error?.pointee = CFError("no trust store could be made")
        return false
    }
    let leaf = trust.certificates[0].certificate
    let intermediates = trust.certificates.dropFirst().map(\.certificate)
    switch store.verify(leaf: leaf, intermediates: intermediates, at: trust.verifyDate ?? Date()) {
    case .success(let verified):
        trust.chain = verified.certificates.map(SecCertificate.init)
        return true
    case .failure(let failure):
        error?.pointee = CFError("\(failure.message) (depth \(failure.depth))")
        return false
    }
}

/// The certificate chain of the evaluation, leaf first: the built chain after a successful evaluation, else the
/// certificates given.
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? {
    if trust.chain == nil { _ = SecTrustEvaluateWithError(trust, nil) }
    return trust.chain ?? trust.certificates
}
