import Foundation
import TallyCore
@testable import TallyServer

/// The strict JSON reader every request body goes through (UTF-8 check, ``JSONDepthScan``,
/// ``JSONStrictScan``, Foundation's decoder), at the default depth limit and at a small one.
enum JSONBodyTarget {
    static func run(_ bytes: [UInt8]) {
        for limit in [32, 3] {
            let tree: JSONTree
            do {
                tree = try StrictJSONReader.read(bytes, maxDepth: limit, name: "the body")
            } catch {
                if case .tooDeep = error {
                    require(JSONDepthScan.exceeds(bytes, limit: limit), "tooDeep without the scan finding it")
                }
                continue
            }
            require(String(validating: bytes, as: UTF8.self) != nil, "accepted bytes that are not UTF-8")
            require(depth(of: tree) <= limit, "accepted JSON nested \(depth(of: tree)) deep, limit \(limit)")
        }
    }

    /// How deeply arrays and objects nest (a scalar is 0).
    static func depth(of tree: JSONTree) -> Int {
        switch tree {
        case .array(let elements): 1 + (elements.map(depth(of:)).max() ?? 0)
        case .object(let members): 1 + (members.values.map(depth(of:)).max() ?? 0)
        default: 0
        }
    }
}
