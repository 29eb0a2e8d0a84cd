import Foundation

/// libFuzzer entry point. The first byte picks the target, so the seed corpus of each stays meaningful:
/// `0x01` the path router, percent-decoding, bearer and cursor parsing (``RoutingTarget``), `0x02` the
/// strict JSON body reader (``JSONBodyTarget``), `0x03` and `0x04` a whole request to the entitlement API
/// with ownership `transfer` and `keep` (``APITarget``); any other first byte (DER receipts start with `0x30`, base64 with a letter, JWS with
/// `e`) feeds the whole input to the receipt and JWS parsers (``ParserTarget``). Any crash, trap,
/// sanitizer report or broken property is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    switch input.first {
    case 0x01: RoutingTarget.run(Array(input.dropFirst()))
    case 0x02: JSONBodyTarget.run(Array(input.dropFirst()))
    case 0x03: APITarget.run(Array(input.dropFirst()), api: FuzzServer.api(.transfer))
    case 0x04: APITarget.run(Array(input.dropFirst()), api: FuzzServer.api(.keep))
    default: ParserTarget.run(Data(input))
    }
    return 0
}

/// Stops the run with `message` when a property the fuzzer checks does not hold (libFuzzer records the
/// input as a crash).
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("property broken: \(message())") }
}
