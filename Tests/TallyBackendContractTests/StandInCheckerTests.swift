#if os(Linux)
import Foundation
import Testing

/// scripts/check_storekit_standin.py: it passes a module that declares exactly the interface, names each kind of
/// difference in one that does not, and passes the real stand-in against Apple's iOS 26 interface.
@Suite struct StandInCheckerTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("StandInChecker")
    /// Where this test bundle's modules were built (the stand-in `StoreKit` among them: this target depends on it).
    static let modules = Bundle.main.bundleURL.appendingPathComponent("Modules")
    static let appleInterface = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/docs/storekit-interface-ios26.txt")

    /// Runs the checker; answers its exit status and standard output.
    static func check(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", packageRoot.appendingPathComponent("scripts/check_storekit_standin.py").path]
            + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    @Test func aModuleDeclaringExactlyTheInterfacePasses() throws {
        let result = try Self.check(["--interface", Self.fixture("interface.txt"), "--module", "Fixture",
                                     "--source", Self.fixture("Exact.swift.fixture")])
        #expect(result.status == 0, "\(result.output)")
        // 8 declarations and 7 conformances; the SPI hook is not counted.
        #expect(result.output.contains("15 of 15 declarations match"), "\(result.output)")
    }

    @Test func eachKindOfDifferenceIsNamedAndFails() throws {
        let result = try Self.check(["--interface", Self.fixture("interface.txt"), "--module", "Fixture",
                                     "--source", Self.fixture("Wrong.swift.fixture")])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("10 of 17 declarations match"), "\(result.output)")
        for expected in [
            "not in Apple's interface: Widget: var name: Int { get }",
            "availability differs: Widget: func spin(times: Int) async throws -> Bool says iOS 17",
            "attributes differ: Widget: func show() has none, Apple ['MainActor']",
            "not in Apple's interface: Widget: var description: String { get }",
            "not in Apple's interface: (top level): @frozen enum Box<Value> where Value : Sendable",
            "conformance not Apple's: Widget: CustomStringConvertible",
            "conformance not Apple's: Box: Sendable (Apple: Sendable where Value:Sendable)",
        ] {
            #expect(result.output.contains(expected), "missing \(expected) in \(result.output)")
        }
    }

    @Test("an interface it cannot read is an error (exit 2), not a pass", arguments: [
        ("absent.txt", "cannot read Apple's interface"),
        ("unclosed.txt", "the interface ends inside Widget"),
    ])
    func anUnusableInterfaceIsAnErrorNotAPass(interface: String, reason: String) throws {
        let result = try Self.check(["--interface", Self.fixture(interface), "--module", "Fixture",
                                     "--source", Self.fixture("Exact.swift.fixture")])
        #expect(result.status == 2, "\(result.output)")
        #expect(result.output.contains(reason), "\(result.output)")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: appleInterface.path), "needs ../shared/docs"))
    func theStandInDeclaresApplesInterfaceExactly() throws {
        let result = try Self.check(["--interface", Self.appleInterface.path, "--module-dir", Self.modules.path])
        #expect(result.status == 0, "\(result.output)")
    }
}
#endif
