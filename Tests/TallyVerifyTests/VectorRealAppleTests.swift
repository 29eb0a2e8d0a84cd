import Foundation
import TallyCore
import Testing
@testable import TallyVerify

/// Real Apple-signed JWS (`shared/vectors/apple-real`, MANIFEST sections 1 and 4) against the built-in
/// Apple Root CA - G3 at each JWS's own signedDate.
@Suite struct VectorRealAppleTests {
    struct Vector: CustomStringConvertible {
        var name: String
        var jws: String
        var payload: [String: JSONValue]
        var description: String { name }

        var kind: SignedPayloadKind {
            if name.hasPrefix("transaction_") { return .transaction }
            if name.hasPrefix("renewalInfo_") { return .renewalInfo }
            return .notification
        }

        var bundleId: String? {
            if case .string(let value) = payload["bundleId"] { return value }
            if case .object(let data) = payload["data"], case .string(let value) = data["bundleId"] { return value }
            return nil
        }

        /// The environment the payload names (top level or in `data`), if any.
        var environment: String? {
            if case .string(let value) = payload["environment"] { return value }
            if case .object(let data) = payload["data"], case .string(let value) = data["environment"] { return value }
            return nil
        }
    }

    static let vectors: [Vector] = {
        let directory = JWSTestPaths.appleReal.appendingPathComponent("jws")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".jws") }.sorted().compactMap { file in
            let base = String(file.dropLast(4))
            guard let jws = try? JWSTestPaths.text(directory.appendingPathComponent(file)),
                  let json = try? Data(contentsOf: directory.appendingPathComponent(base + ".decoded.json")),
                  let decoded = try? JSONDecoder().decode([String: JSONValue].self, from: json),
                  case .object(let payload) = decoded["payload"]
            else { return nil }
            return Vector(name: base, jws: jws, payload: payload)
        }
    }()

    static func verifier(bundleId: String?) throws -> SignedDataVerifier {
        try SignedDataVerifier(bundleId: bundleId, environment: .sandbox)
    }

    @Test func allTenVerbatimVectorsAreLoaded() {  // the eleventh is jws-reconstructed, tested below
        #expect(Self.vectors.count == 10)
    }

    @Test(arguments: vectors)
    func verifiesAtItsSignedDateWithApplesVerdict(_ vector: Vector) throws {
        let result = try Self.verifier(bundleId: vector.bundleId).verify(vector.jws, kind: vector.kind)
        if vector.environment == "Sandbox" {
            #expect(result.value?.kind == vector.kind, "\(String(describing: result.failure))")
        } else {
            // 2021 payloads carry no environment: Apple's library says INVALID_ENVIRONMENT, after the
            // chain and signature passed (they are checked first).
            #expect(result.failure?.reason == .invalidEnvironment, "\(String(describing: result.failure))")
        }
    }

    @Test(arguments: vectors)
    func decodesToEveryListedField(_ vector: Vector) throws {
        let verifier = try Self.verifier(bundleId: vector.bundleId)
        // The raw payload, after chain and signature: equal field by field to the .decoded.json.
        let raw = verifier.verifyPayload(vector.jws, as: JSONValue.self, kind: vector.kind)
        let fields: [String: JSONValue]
        switch raw {
        case .success(.object(let object)): fields = object
        case .failure(let failure) where failure.reason == .invalidEnvironment:
            let parts = try CompactJWS.split(vector.jws).get()
            fields = try JSONDecoder().decode([String: JSONValue].self, from: Data(try #require(Base64URL.decode(parts.payload))))
        default:
            Issue.record("unexpected \(raw)")
            return
        }
        for (key, value) in vector.payload {
            #expect(fields[key] == value, "\(key)")
        }
        #expect(fields.count == vector.payload.count)

        // The typed model re-encodes to exactly the same fields.
        let payloadJSON = try JSONEncoder().encode(vector.payload)
        let reencoded: Data
        switch vector.kind {
        case .transaction: reencoded = try JSONEncoder().encode(try JSONDecoder().decode(StoreTransaction.self, from: payloadJSON))
        case .renewalInfo: reencoded = try JSONEncoder().encode(try JSONDecoder().decode(RenewalInfo.self, from: payloadJSON))
        default: reencoded = try JSONEncoder().encode(try JSONDecoder().decode(ServerNotification.self, from: payloadJSON))
        }
        #expect(try JSONDecoder().decode([String: JSONValue].self, from: reencoded) == vector.payload)
    }

    @Test func goodheartTransactionDecodesToTallysModel() throws {
        let vector = try #require(Self.vectors.first { $0.name.contains("goodheartapp") })
        let transaction = try Self.verifier(bundleId: "com.goodheartapp").verifyTransaction(vector.jws).get()
        #expect(transaction.transactionId == "2000000847061981")
        #expect(transaction.type == .consumable)
        #expect(transaction.priceAmount == Decimal(230))
        #expect(transaction.currency == "JPY" && transaction.storefront == "JPN")
        #expect(transaction.signedDate?.millisecondsSince1970 == 1_739_161_772_561)
    }

    @Test func reconstructedMimoNotificationVerifies() throws {
        let url = JWSTestPaths.appleReal.appendingPathComponent(
            "jws-reconstructed/notification_TEST_com.getmimo.mimo_1706887729389_reconstructed-header.jws")
        let notification = try Self.verifier(bundleId: "com.getmimo.mimo").verifyNotification(try JWSTestPaths.text(url)).get()
        #expect(notification.notificationType == .test)
        #expect(notification.notificationUUID == "2d483fcc-3657-423e-ab13-024602fe16b3")
        #expect(notification.version == "2.0")
        #expect(notification.signedDate?.millisecondsSince1970 == 1_706_887_729_389)
    }

    @Test(arguments: [
        "derived_foreign_signature_renewalInfo_1684822778492.jws",
        "derived_tampered_payload_renewalInfo_1684822778492.jws",
        "getmimo_InputFor_VerifyAndDecode_AlgParameterIsUnsupported_Fails.txt",
        "getmimo_InputFor_VerifyAndDecode_ChainCertificateCompromised_Fails.txt",
        "getmimo_InputFor_VerifyAndDecode_InvalidSignature_Fails.txt",
        "getmimo_InputFor_VerifyAndDecode_Nox5cParameter_Fails.txt",
        "getmimo_InputFor_VerifyAndDecode_JWSIsMissingAPart_Fails.txt",
    ])
    func negativeVectorIsRejected(_ file: String) throws {
        let jws = try JWSTestPaths.text(JWSTestPaths.appleReal.appendingPathComponent("negative/\(file)"))
        let kind: SignedPayloadKind = file.contains("renewalInfo") ? .renewalInfo : .notification
        let result = try Self.verifier(bundleId: nil).verify(jws, kind: kind)
        #expect(result.failure?.reason == .verificationFailure, "\(String(describing: result))")
    }

    @Test func expiredLeafFailsAtTheCurrentTimeWithDatesInTheDetail() throws {
        let vector = try #require(Self.vectors.first { $0.name.contains("1684822778492") })
        let verifier = try SignedDataVerifier(bundleId: nil, environment: .sandbox, effectiveDate: .now)
        let failure = try #require(verifier.verifyRenewalInfo(vector.jws).failure)
        #expect(failure.reason == .verificationFailure)
        #expect(failure.detail.hasPrefix("leaf certificate expired 2023-09-24, current time "), "\(failure.detail)")
    }

    @Test func appleJWSDoesNotVerifyAgainstTheRSARoot() throws {
        let data = try Data(contentsOf: JWSTestPaths.appleReal.appendingPathComponent("certs/Apple_Root_CA_20060425-20350209_2.cer"))
        let rsaRoot = try #require(Certificate(der: data))
        let verifier = try SignedDataVerifier(rootCertificates: [rsaRoot], bundleId: nil, environment: .sandbox)
        let vector = try #require(Self.vectors.first { $0.name.contains("1684822778492") })
        let failure = try #require(verifier.verifyRenewalInfo(vector.jws).failure)
        #expect(failure.reason == .verificationFailure)
        #expect(failure.detail.contains("trusted root"), "\(failure.detail)")
    }
}
