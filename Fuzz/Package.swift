// swift-tools-version:6.0
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, which differs between a checkout ("tally"), the
/// main repository and worktrees; read it instead of guessing.
let tallyIdentity = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

/// libFuzzer target over Tally's parsers and the server's request handling. Build and run with
/// `./run.sh SECONDS` (Linux, Swift toolchain with `-sanitize=fuzzer`); not part of the main package's build.
let package = Package(
    name: "TallyFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "TallyFuzz",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "TallyVerify", package: tallyIdentity),
                .product(name: "TallyCore", package: tallyIdentity),
                .product(name: "TallyHTTP", package: tallyIdentity),
                .product(name: "TallyServer", package: tallyIdentity),
                .product(name: "TallyStorage", package: tallyIdentity),
                .product(name: "TallySQLiteStore", package: tallyIdentity),
                .product(name: "TallySandbox", package: tallyIdentity),
            ]
        ),
        /// Declares libFuzzer's driver entry for Swift.
        .target(name: "CFuzzerDriver"),
    ],
    swiftLanguageModes: [.v6]
)
