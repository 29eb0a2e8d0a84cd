/// TallyVerify's API speaks in TallyCrypto's types (`Certificate`, `PublicKey`, `TrustStore`,
/// `JWSSigner`, `Base64URL`, …), so `import TallyVerify` brings them along.
@_exported import TallyCrypto
/// The OpenSSL-free rules both verifiers share (``VerificationFailure``, ``SignedClaims``, ``SignedPayloadKind``,
/// ``EffectiveDatePolicy``, ``AppleSignedData``) are TallyVerify's API too.
@_exported import TallySignedData
