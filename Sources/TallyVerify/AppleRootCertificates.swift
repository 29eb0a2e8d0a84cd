import TallySignedData

/// Apple's root certificates, built in.
public enum AppleRootCertificates {
    /// Apple Root CA - G3 (ECC P-384, 2014-04-30 → 2039-04-30), the root of every App Store JWS chain.
    /// SHA-256 of the DER: 63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179.
    /// Source: https://www.apple.com/certificateauthority/AppleRootCA-G3.cer
    public static let appleRootCAG3: Certificate = {
        guard let certificate = Certificate(der: AppleSignedData.appleRootCAG3DER) else {
            preconditionFailure("the built-in Apple Root CA - G3 constant does not parse")  // a build defect, not input
        }
        return certificate
    }()
}
