import Foundation

/// Compares what Foundation's `JSONSerialization` parsed with the values we expect.
///
/// Exact, except for two defects of swift-corelibs-foundation's parser on Linux,
/// each pinned by a test in `FoundationDefectTests` so that a fix upstream is noticed:
/// - it does not round long decimals correctly (it reads `0.30000000000000004` as
///   `0.3000000000000001`, `-11241.26064069441` two ulps off, tiny numbers further),
///   so doubles are compared to a relative 1e-12; our own decoder and `strtod` are
///   checked to be exact separately;
/// - it drops U+FEFF (ZERO WIDTH NO-BREAK SPACE) at the start of a string and after
///   each escape sequence, so U+FEFF is left out of string comparisons.
enum FoundationComparison {
    /// A description of the first difference, or `nil` when the values agree.
    static func mismatch(_ parsed: Any, _ expected: Any, path: String = "$") -> String? {
        switch (parsed, expected) {
        case (let parsed as NSDictionary, let expected as NSDictionary):
            guard Set(parsed.allKeys.map { "\($0)" }) == Set(expected.allKeys.map { "\($0)" }) else {
                return "\(path): keys \(parsed.allKeys) vs \(expected.allKeys)"
            }
            for case let key as String in expected.allKeys {
                if let difference = mismatch(parsed[key]!, expected[key]!, path: "\(path).\(key)") { return difference }
            }
            return nil
        case (let parsed as NSArray, let expected as NSArray):
            guard parsed.count == expected.count else { return "\(path): \(parsed.count) vs \(expected.count) elements" }
            for index in 0..<parsed.count {
                if let difference = mismatch(parsed[index], expected[index], path: "\(path)[\(index)]") { return difference }
            }
            return nil
        case (let parsed as String, let expected as String):
            let agree = parsed.unicodeScalars.filter { $0 != "\u{FEFF}" }
                .elementsEqual(expected.unicodeScalars.filter { $0 != "\u{FEFF}" })
            return agree ? nil : "\(path): \(parsed.debugDescription) vs \(expected.debugDescription)"
        case (let parsed as NSNumber, let expected as NSNumber):
            return numbersAgree(parsed, expected) ? nil : "\(path): \(parsed) vs \(expected)"
        default:
            return "\(path): \(type(of: parsed)) vs \(type(of: expected))"
        }
    }

    static func numbersAgree(_ parsed: NSNumber, _ expected: NSNumber) -> Bool {
        let expectedType = String(cString: expected.objCType)
        if expectedType == "d" || expectedType == "f" {
            let want = expected.doubleValue
            let got = parsed.doubleValue
            return got == want || abs(got - want) <= abs(want) * 1e-12
        }
        if expectedType == "c" || expectedType == "B" {
            return parsed.boolValue == expected.boolValue
        }
        return parsed.int64Value == expected.int64Value
    }
}
