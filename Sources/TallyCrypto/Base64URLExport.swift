/// `Base64URL` lives in TallySignedData (the OpenSSL-free layer both verifiers use); TallyCrypto's JWS signing and
/// server API tokens speak it, so `import TallyCrypto` brings that one type along.
@_exported import enum TallySignedData.Base64URL
