// swift-tools-version:6.0
// Tally — in-app purchases from the device to the server.
// Copyright the Tally authors. Licensed under the Apache License, Version 2.0 (LICENSE, or
// http://www.apache.org/licenses/LICENSE-2.0); SPDX-License-Identifier: Apache-2.0.
import PackageDescription

/// The StoreKit stand-in (Tests/StoreKitStandIn, module `StoreKit`) as a dependency: on Linux only, where no real
/// StoreKit exists. On Apple platforms the target is not even declared (see the end of this file), so `import
/// StoreKit` there is always Apple's framework.
#if os(Linux)
let storeKitOnLinux: [Target.Dependency] = [.target(name: "StoreKit", condition: .when(platforms: [.linux]))]
/// The CryptoKit and Security stand-ins (Tests/CryptoKitStandIn, Tests/SecurityStandIn) as dependencies, on Linux
/// only, like the StoreKit stand-in: the Apple-path verifier in TallyStoreKit compiles against them here.
let appleCryptoOnLinux: [Target.Dependency] = [
    .target(name: "CryptoKit", condition: .when(platforms: [.linux])),
    .target(name: "Security", condition: .when(platforms: [.linux])),
]
/// The CryptoKit stand-in alone, on Linux only: the engine checks the server's signed answers with CryptoKit.
let cryptoKitOnLinux: [Target.Dependency] = [.target(name: "CryptoKit", condition: .when(platforms: [.linux]))]
/// The UIKit stand-in (Tests/UIKitStandIn, module `UIKit`, declaring only `UIWindowScene`) as a dependency, on
/// Linux only: the StoreKit sheets' API (manage subscriptions, offer codes, refund requests, messages) takes the
/// app's scene, and on Linux that API compiles against the stand-in.
let uiKitOnLinux: [Target.Dependency] = [.target(name: "UIKit", condition: .when(platforms: [.linux]))]
/// The Combine stand-in (Tests/CombineStandIn) for `ObservableStoreModel`, on Linux only, like StoreKit's.
let combineOnLinux: [Target.Dependency] = [.target(name: "Combine", condition: .when(platforms: [.linux]))]
/// The SwiftUI stand-in (Tests/SwiftUIStandIn), on Linux only, like StoreKit's.
let swiftUIOnLinux: [Target.Dependency] = [.target(name: "SwiftUI", condition: .when(platforms: [.linux]))]
#else
let storeKitOnLinux: [Target.Dependency] = []
let appleCryptoOnLinux: [Target.Dependency] = []
let cryptoKitOnLinux: [Target.Dependency] = []
let uiKitOnLinux: [Target.Dependency] = []
let combineOnLinux: [Target.Dependency] = []
let swiftUIOnLinux: [Target.Dependency] = []
#endif

let package = Package(
    name: "Tally",
    // StoreKit 2's floor: what an app links (TallyCore, Tally, TallyStoreKit) builds for these. Nothing in the package
    // needs newer APIs unguarded (docs/platforms.md; `make check-apple` lints for them).
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "TallyCore", targets: ["TallyCore"]),
        .library(name: "TallySandbox", targets: ["TallySandbox"]),
        .library(name: "TallyVerify", targets: ["TallyVerify"]),
        .library(name: "Tally", targets: ["Tally"]),
        .library(name: "TallySandboxBackend", targets: ["TallySandboxBackend"]),
        .library(name: "TallyStoreKit", targets: ["TallyStoreKit"]),
        .library(name: "TallyHTTP", targets: ["TallyHTTP"]),
        .library(name: "TallyStorage", targets: ["TallyStorage"]),
        .library(name: "TallySQLiteStore", targets: ["TallySQLiteStore"]),
        .library(name: "TallyServer", targets: ["TallyServer"]),
        .library(name: "TallyPostgres", targets: ["TallyPostgres"]),
        .library(name: "TallySandboxServer", targets: ["TallySandboxServer"]),
        .library(name: "TallyAppStoreAPI", targets: ["TallyAppStoreAPI"]),
        .library(name: "TallyTesting", targets: ["TallyTesting"]),
        .library(name: "TallySandboxTesting", targets: ["TallySandboxTesting"]),
        .executable(name: "tally", targets: ["tally"]),
        .executable(name: "tally-bench", targets: ["tally-bench"]),
    ],
    targets: [
        /// OpenSSL (libssl-dev / Homebrew openssl@3) for every cryptographic operation.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        /// GNU libmicrohttpd (libmicrohttpd-dev / Homebrew libmicrohttpd): the HTTP server under TallyHTTP.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        /// SQLite (libsqlite3-dev / the macOS SDK): TallyServer's default customer store and the sandbox's state.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        /// libpq (libpq-dev / Homebrew libpq): the PostgreSQL client under TallyPostgres.
        .systemLibrary(
            name: "CPostgreSQL",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        /// The model and the rules: pure values, no I/O.
        .target(name: "TallyCore"),
        /// `Locked<Value>`: the one lock of every module, over Foundation's NSLock (Synchronization's Mutex needs
        /// iOS 18 / macOS 15; Tally's floor is iOS 15 / macOS 12).
        .target(name: "TallyLocking"),
        /// The servers' one background idiom: a `Service` runs until its task is cancelled, a `ServiceGroup` starts
        /// services and its stop cancels and joins them; blocking rounds run on a `BlockingQueue`, off Swift's pool.
        .target(name: "TallyServices", dependencies: ["TallyLocking"]),
        /// OpenSSL wrappers shared by TallyVerify and TallySandbox: certificates, keys, ECDSA P-256,
        /// X.509 chains, certificate issuing, base64url, ES256 JWS signing.
        .target(name: "TallyCrypto", dependencies: ["COpenSSL", "TallySignedData"]),
        /// The OpenSSL-free rules of App Store signed data that TallyVerify and TallyStoreKit's Apple-path verifier
        /// share: compact JWS, header rules, claims checks, the effective date, base64url, Apple's root and OIDs,
        /// a strict DER reader for certificate extensions.
        .target(name: "TallySignedData", dependencies: ["TallyCore"]),
        /// A simulated App Store driven by .storekit files.
        /// SQLite's statements, values and errors for the modules that keep SQLite files (the sandbox, the server).
        .target(name: "TallySQLite", dependencies: ["CSQLite"]),
        .target(name: "TallySandbox", dependencies: ["TallyCore", "TallyCrypto", "CSQLite", "TallySQLite", "TallyLocking"]),
        /// Verification of App Store signed data and receipts.
        .target(name: "TallyVerify", dependencies: ["TallyCore", "TallyCrypto", "COpenSSL", "TallySignedData"]),
        /// The engine apps import: products, purchases, restore, ownership and crash-safe delivery.
        /// Checks the server's signed answers (`Tally-Signature`) with CryptoKit (on Linux its stand-in).
        .target(name: "Tally", dependencies: ["TallyCore", "TallyLocking"] + cryptoKitOnLinux + uiKitOnLinux
                    + combineOnLinux),
        /// The engine's `StoreBackend` over a sandbox directory (the only place that knows both); it signs what it
    /// delivers with the sandbox's authority and verifies signed forms with TallyVerify.
        .target(name: "TallySandboxBackend",
                dependencies: ["Tally", "TallyCore", "TallySandbox", "TallyVerify", "TallyLocking"] + uiKitOnLinux),
        /// An HTTP/1.1 server over libmicrohttpd: complete requests in, responses out; knows nothing of Tally.
        .target(name: "TallyHTTP", dependencies: ["CMicroHTTPD", "TallyLocking"]),
        /// The App Store Server API played by a sandbox directory, over TallyHTTP.
        .target(name: "TallySandboxServer", dependencies: ["TallySandbox", "TallyCore", "TallyCrypto", "TallyHTTP", "TallyLocking", "TallyServices"]),
        /// A client of Apple's App Store Server API (signed requests, Apple's retry rules), for the server.
        .target(name: "TallyAppStoreAPI", dependencies: ["TallyCrypto", "TallyLocking"]),
        /// The server's storage contract: `CustomerStore`, `DashboardStore`, the stored values, and the one
        /// `TransactionRecorder` and `NotificationRecorder` every store writes through. No database here.
        .target(name: "TallyStorage", dependencies: ["TallyCore", "TallySignedData", "TallyLocking"]),
        /// `SQLiteCustomerStore`: the server's customer store in one SQLite file (the default), over the contract.
        .target(name: "TallySQLiteStore", dependencies: ["TallyStorage", "TallyCore", "CSQLite", "TallySQLite"]),
        /// The self-hosted entitlement server: the /v1 API over any `CustomerStore` (the CLI opens SQLite or
        /// PostgreSQL); links no database.
        .target(name: "TallyServer",
                dependencies: ["TallyCore", "TallyStorage", "TallyVerify", "TallyHTTP", "TallyCrypto",
                               "TallyAppStoreAPI", "TallyLocking", "TallyServices"],
                resources: [.copy("Dashboard/Web"), .copy("OpenAPI/openapi.yaml")]),
        /// `PostgresCustomerStore`: the server's customer store on PostgreSQL over libpq, for many servers on one
        /// database, over the contract (TallyServer does not link libpq; the CLI wires this store in).
        .target(name: "TallyPostgres", dependencies: ["TallyStorage", "TallyCore", "CPostgreSQL", "TallyLocking"]),
        /// Test support for apps: `TestClock`, `InMemoryBackend` (a `StoreBackend` in memory) and its signatures.
        /// Over Tally and TallyCore only, no system library: an app's on-device tests can link it
        /// (scripts/check_apple_closure.py checks it with what an app links).
        .target(name: "TallyTesting", dependencies: ["Tally", "TallyCore", "TallyLocking"]),
        /// Test support over the sandbox: `TemporarySandbox`, a simulated App Store in a temporary directory with
        /// the engine's `SandboxBackend` over it. Links OpenSSL and SQLite (TallySandbox), so apart from TallyTesting.
        .target(name: "TallySandboxTesting",
                dependencies: ["TallyTesting", "Tally", "TallyCore", "TallySandbox", "TallySandboxBackend"]),
        .executableTarget(
            name: "tally",
            dependencies: ["TallyCore", "TallySandbox", "TallyVerify", "Tally", "TallySandboxBackend", "TallyServer",
                           "TallyStorage", "TallySQLiteStore", "TallyHTTP", "TallySandboxServer", "TallyCrypto",
                           "TallyPostgres", "TallyLocking", "TallyServices"]),
        .executableTarget(
            name: "tally-bench",
            dependencies: [
                "TallyCore", "TallySandbox", "TallyVerify", "Tally", "TallySandboxBackend", "TallyServer", "TallyHTTP",
                "TallyStorage", "TallySQLiteStore", "CSQLite", "TallyCrypto", "TallySandboxServer", "TallyPostgres",
                "TallyLocking",
            ]),
        /// Buys through the engine over a sandbox directory and pauses at a named delivery step
        /// (`TALLY_DELIVERY_PAUSE`), so the crash tests can SIGKILL it there.
        .executableTarget(
            name: "tally-delivery-harness", dependencies: ["Tally", "TallyCore", "TallySandbox", "TallySandboxBackend"]),
        .testTarget(name: "TallyCoreTests", dependencies: ["TallyCore"]),
        .testTarget(name: "TallyTests", dependencies: ["Tally", "TallyCore", "TallyHTTP", "TallyLocking", "TallyTesting"]
                        + combineOnLinux),
        /// TallyTesting and TallySandboxTesting as an app's tests use them.
        .testTarget(name: "TallyTestingTests",
                    dependencies: ["TallyTesting", "TallySandboxTesting", "Tally", "TallyCore", "TallySandbox"]),
        /// The engine's `StoreBackend` over Apple's StoreKit 2: the real framework on Apple platforms, the stand-in
        /// module `StoreKit` (Tests/StoreKitStandIn, declared below on Linux only) elsewhere. Verifies signed forms
        /// against Apple's root with CryptoKit and Security (on Linux their stand-ins) and TallySignedData's rules:
        /// no OpenSSL beneath it.
        .target(name: "TallyStoreKit",
                dependencies: ["Tally", "TallyCore", "TallySignedData"] + storeKitOnLinux + appleCryptoOnLinux
                    + uiKitOnLinux),
        /// App files importing `Tally`, `TallyStoreKit`, StoreKit and SwiftUI (on Linux their stand-ins) with Apple's
        /// names unqualified: they must compile and run.
        .testTarget(name: "TallyAppTests",
                    dependencies: ["Tally", "TallyStoreKit"] + storeKitOnLinux + swiftUIOnLinux),
        /// The Market app's screen model (Examples/MarketApp/MarketShop.swift) over the StoreKit backend; the SwiftUI
        /// file is type-checked by the Linux-only `MarketApp` target (end of this file).
        .target(name: "MarketAppModel", dependencies: ["Tally", "TallyStoreKit"], path: "Examples/MarketApp",
                exclude: ["MarketApp.swift", "README.md"]),
        /// One backend contract, run against the sandbox backend and (on Linux) the StoreKit backend over the
        /// scripted stand-in.
        .testTarget(name: "TallyBackendContractTests",
                    dependencies: ["Tally", "TallyCore", "TallySandbox", "TallySandboxBackend", "TallyStoreKit",
                                   "MarketAppModel", "TallyVerify"]
                        + storeKitOnLinux + uiKitOnLinux,
                    exclude: ["StandInChecker"]),
        .testTarget(
            name: "TallySandboxTests", dependencies: ["TallySandbox", "TallyCore"],
            exclude: ["Signing/verify_with_apple.py"]),
        /// Runs the built `tally` executable: the command line's contract (exit codes, JSON shapes).
        .testTarget(name: "TallyCLITests",
                    dependencies: ["tally", "tally-delivery-harness", "Tally", "TallyCore", "TallySandbox",
                                   "TallySandboxBackend"],
                    exclude: ["apple_api_client.py", "apple_api_more.py", "apple_notification_client.py",
                              "notification_receiver.py", "slow_proxy.py",
                              "verify_answer_signature.py", "offer_purchases.py"]),
        .testTarget(name: "TallyHTTPTests", dependencies: ["TallyHTTP"]),
        .testTarget(name: "TallyServicesTests", dependencies: ["TallyServices", "TallyLocking"]),
        /// Runs the built `tally serve` on loopback and talks HTTP to it: the server's contract end to end.
        .testTarget(
            name: "TallyServerProcessTests", dependencies: ["tally", "TallySandbox", "TallyCore", "TallyCrypto"],
            exclude: ["dashboard_browser.py", "dashboard_offerings_browser.py", "dashboard_offers_browser.py", "browser_session.py",
                      "offer_signatures.py"]),
        .testTarget(
            name: "TallyServerTests",
            dependencies: ["TallyServer", "TallyStorage", "TallySQLiteStore", "TallyHTTP", "TallyCore", "TallySandbox",
                           "TallyVerify", "CSQLite", "TallySQLite", "TallyCrypto", "TallyPostgres", "TallyTesting"]),
        .testTarget(name: "TallyCryptoTests", dependencies: ["TallyCrypto"],
                    exclude: ["apple_token.py", "customer_token.py"]),
        /// Runs the built `tally sandbox serve` and calls it with the client: retries, 429 and 5xx on a real socket.
        .testTarget(name: "TallyAppStoreAPITests", dependencies: ["TallyAppStoreAPI", "TallyCrypto", "tally"]),
        /// TallyStoreKit's Apple-path verifier against TallyVerify: the same verdict for every JWS in ../shared/vectors
        /// and for generated broken chains; TallySignedData's DER reader on hostile bytes.
        .testTarget(name: "AppleVerifierParityTests",
                    dependencies: ["TallyStoreKit", "Tally", "TallyVerify", "TallySignedData", "TallyCrypto", "TallyCore"]),
        .testTarget(name: "TallyVerifyTests", dependencies: ["TallyVerify", "TallyCore"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

#if os(Linux)
/// Test support, Linux only: StoreKit 2's API as ../shared/docs/storekit2-api.md documents it, answering what tests
/// script (Tests/StoreKitStandIn/StoreKit.swift). Never declared where the real StoreKit exists, so it cannot
/// shadow it; not a product apps can link.
/// Its SwiftUI modifiers (`refundRequestSheet`, Apple's StoreKit-SwiftUI overlay) are declared over the SwiftUI
/// stand-in, its sheets take UIKit's scene.
package.targets.append(.target(name: "StoreKit", dependencies: ["UIKit", "SwiftUI"], path: "Tests/StoreKitStandIn"))
/// Test support, Linux only: CryptoKit's P-256 signature check and Security's certificates and trust evaluation as
/// Apple declares them, implemented over TallyCrypto (OpenSSL); see each module's header comment for its deviations.
package.targets.append(.target(name: "CryptoKit", dependencies: ["TallyCrypto"], path: "Tests/CryptoKitStandIn"))
package.targets.append(.target(name: "Security", dependencies: ["TallyCrypto", "TallySignedData"],
                               path: "Tests/SecurityStandIn"))
/// Test support, Linux only: UIKit's `UIWindowScene` (Tests/UIKitStandIn/UIWindowScene.swift), the scene StoreKit's
/// sheets take; in what Tally links on Linux only so that the scene-taking API compiles and is tested here.
package.targets.append(.target(name: "UIKit", path: "Tests/UIKitStandIn"))
/// Test support, Linux only: Combine's `ObservableObject`, `@Published` and `ObservableObjectPublisher` as Apple
/// declares them, with a minimal working implementation (Tests/CombineStandIn/Combine.swift).
package.targets.append(.target(name: "Combine", path: "Tests/CombineStandIn"))
/// Test support, Linux only: the part of SwiftUI that the Market app and TallyAppTests use, with Apple's declarations;
/// views only type-check (Tests/SwiftUIStandIn/View.swift).
package.targets.append(.target(name: "SwiftUI", path: "Tests/SwiftUIStandIn"))
/// Examples/MarketApp/MarketApp.swift (the SwiftUI app) type-checked against the SwiftUI and StoreKit stand-ins; on
/// Apple platforms it is built by an Xcode app target instead (see its README).
package.targets.append(.executableTarget(name: "MarketApp", dependencies: ["MarketAppModel", "Tally", "SwiftUI", "StoreKit"],
                                         path: "Examples/MarketApp", exclude: ["MarketShop.swift", "README.md"],
                                         sources: ["MarketApp.swift"]))
#endif
