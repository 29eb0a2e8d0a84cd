import Foundation
import TallyCore

/// What Apple fixes about App Store signed data, for every verifier: the root, the marker extensions and which
/// environments carry no signature to check.
public enum AppleSignedData {
    /// Apple's marker extension on the App Store signing leaf (Mac App Store receipt signing).
    public static let leafMarkerOID = "1.2.840.113635.100.6.11.1"
    /// Apple's marker extension on the WWDR intermediate.
    public static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"

    /// Apple Root CA - G3 (ECC P-384, 2014-04-30 → 2039-04-30), the root of every App Store JWS chain, as DER.
    /// SHA-256 of the DER: 63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179.
    /// Source: https://www.apple.com/certificateauthority/AppleRootCA-G3.cer
    public static let appleRootCAG3DER: Data = {
        guard let der = Data(base64Encoded: appleRootCAG3Base64) else {
            preconditionFailure("the built-in Apple Root CA - G3 constant is not base64")  // a build defect, not input
        }
        return der
    }()

    /// Longest JWS accepted by default, in bytes; real App Store JWS are under 20 KB.
    public static let maximumJWSLength = 1 << 20

    /// Whether data of `environment` is checked without its signature and chain (Xcode, LocalTesting), as Apple's
    /// library does: StoreKit testing in Xcode signs with a local key no root vouches for.
    package static func skipsSignature(_ environment: StoreEnvironment) -> Bool {
        environment == .xcode || environment == .localTesting
    }

    static let appleRootCAG3Base64 = """
        MIICQzCCAcmgAwIBAgIILcX8iNLFS5UwCgYIKoZIzj0EAwMwZzEbMBkGA1UEAwwSQXBwbGUgUm9vdCBDQSAtIEczMSYwJAYD
        VQQLDB1BcHBsZSBDZXJ0aWZpY2F0aW9uIEF1dGhvcml0eTETMBEGA1UECgwKQXBwbGUgSW5jLjELMAkGA1UEBhMCVVMwHhcN
        MTQwNDMwMTgxOTA2WhcNMzkwNDMwMTgxOTA2WjBnMRswGQYDVQQDDBJBcHBsZSBSb290IENBIC0gRzMxJjAkBgNVBAsMHUFw
        cGxlIENlcnRpZmljYXRpb24gQXV0aG9yaXR5MRMwEQYDVQQKDApBcHBsZSBJbmMuMQswCQYDVQQGEwJVUzB2MBAGByqGSM49
        AgEGBSuBBAAiA2IABJjpLz1AcqTtkyJygRMc3RCV8cWjTnHcFBbZDuWmBSp3ZHtfTjjTuxxEtX/1H7YyYl3J6YRbTzBPEVoA
        /VhYDKX1DyxNB0cTddqXl5dvMVztK517IDvYuVTZXpmkOlEKMaNCMEAwHQYDVR0OBBYEFLuw3qFYM4iapIqZ3r6966/ayySr
        MA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMDA2gAMGUCMQCD6cHEFl4aXTQY2e3v9GwOAEZL
        uN+yRhHFD/3meoyhpmvOwgPUnPWTxnS4at+qIxUCMG1mihDK1A3UT82NQz60imOlM27jbdoXt2QfyFMm+YhidDkLF1vLUagM
        6BgD56KyKA==
        """.filter { !$0.isWhitespace }
}
