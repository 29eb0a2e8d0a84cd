/// TallyVerify's API speaks in TallyCrypto's types (`Certificate`, `PublicKey`, `TrustStore`,
/// `JWSSigner`, `Base64URL`, …), so `import TallyVerify` brings them along.
@_exported import TallyCrypto
