import Foundation
import Testing

/// Pins the Linux Foundation parser defects that `FoundationComparison` tolerates, so
/// that the tolerance is removed when the defects are fixed.
@Suite("Known defects of Foundation's JSON parser on Linux")
struct FoundationDefectTests {
    #if os(Linux)
    @Test("a long decimal may be read a few ulps off by JSONSerialization (strtod is exact)")
    func doubleRounding() throws {
        let parsed = try JSONSerialization.jsonObject(with: Data("[0.30000000000000004]".utf8)) as? [NSNumber]
        let value = try #require(parsed?.first).doubleValue
        #expect(value != 0.30000000000000004, "fixed upstream: tighten FoundationComparison")
        #expect(abs(value - 0.30000000000000004) <= (0.30000000000000004).ulp)
        #expect(Double("0.30000000000000004") == 0.1 + 0.2)
        let other = try #require(try JSONSerialization.jsonObject(with: Data("[-11241.26064069441]".utf8)) as? [NSNumber])
        #expect(abs(other[0].doubleValue - -11241.26064069441) == 2 * (11241.26064069441).ulp)
    }

    @Test("U+FEFF is dropped by JSONSerialization at a string's start and after an escape")
    func byteOrderMarkInString() throws {
        let input = "[\"\u{FEFF}x\", \"x\u{FEFF}\", \"\\n\u{FEFF}x\"]"
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(input.utf8)) as? [String])
        #expect(parsed[0].unicodeScalars.count == 1, "fixed upstream: tighten FoundationComparison")
        #expect(parsed[1].unicodeScalars.count == 2)
        #expect(parsed[2].unicodeScalars.count == 2, "fixed upstream: tighten FoundationComparison")
    }
    #endif
}
