import Foundation
import TallySandbox

/// One sandbox certificate authority for the whole test run (key generation is slow).
enum Signing {
    private static let shared = Result { try SandboxCertificateAuthority.generate(now: ServerFixture.start) }
    private static let other = Result { try SandboxCertificateAuthority.generate(now: ServerFixture.start) }

    /// The authority the fixture's server trusts.
    static func authority() throws -> SandboxCertificateAuthority { try shared.get() }

    /// An authority the server does not trust.
    static func untrustedAuthority() throws -> SandboxCertificateAuthority { try other.get() }
}
