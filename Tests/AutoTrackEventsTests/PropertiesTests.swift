import AutoTrackEvents
import Testing

@Suite("Properties keep insertion order and merge by precedence")
struct PropertiesTests {
    @Test("keys iterate in insertion order")
    func insertionOrder() {
        var properties = Properties()
        for key in ["zeta", "alpha", "$model", "beta"] { properties[key] = .string(key) }
        #expect(properties.keys == ["zeta", "alpha", "$model", "beta"])
        #expect(properties.map(\.key) == ["zeta", "alpha", "$model", "beta"])
    }

    @Test("replacing a value keeps the key's position; re-inserting after removal appends")
    func replaceAndReinsert() {
        var properties: Properties = ["a": 1, "b": 2, "c": 3]
        let old = properties.updateValue(20, forKey: "b")
        #expect(old == 2)
        #expect(properties.keys == ["a", "b", "c"])
        #expect(properties["b"] == 20)
        #expect(properties.removeValue(forKey: "a") == 1)
        properties["a"] = 10
        #expect(properties.keys == ["b", "c", "a"])
        properties["c"] = nil
        #expect(properties.keys == ["b", "a"])
        #expect(properties.count == 2)
    }

    @Test("a literal with a duplicate key keeps the first position and the last value")
    func duplicateLiteral() {
        let properties = Properties([("x", .integer(1)), ("y", .integer(2)), ("x", .integer(3))])
        #expect(properties.keys == ["x", "y"])
        #expect(properties["x"] == 3)
    }

    @Test("equality is order-sensitive")
    func orderSensitiveEquality() {
        let forward: Properties = ["a": 1, "b": 2]
        let backward: Properties = ["b": 2, "a": 1]
        #expect(forward != backward)
        #expect(forward == ["a": 1, "b": 2])
        #expect(Set([forward, ["a": 1, "b": 2]]).count == 1)
    }

    @Test("lookups stay correct across the hashed-index threshold", arguments: [0, 1, 16, 17, 40, 300])
    func indexThreshold(count: Int) {
        var properties = Properties()
        for index in 0..<count { properties["k\(index)"] = .integer(Int64(index)) }
        for index in 0..<count { #expect(properties["k\(index)"] == .integer(Int64(index))) }
        // Remove every third key and check positions are rebuilt.
        for index in stride(from: 0, to: count, by: 3) { properties["k\(index)"] = nil }
        let expected = (0..<count).filter { $0 % 3 != 0 }.map { "k\($0)" }
        #expect(properties.keys == expected)
        for (position, key) in expected.enumerated() { #expect(properties.index(forKey: key) == position) }
        #expect(properties["k0"] == nil)
    }

    @Test("shared keys are found whichever side is larger, past the hashed-index threshold too", arguments: [0, 3, 70])
    func sharedKeys(extra: Int) {
        var large = Properties()
        for index in 0..<extra { large["k\(index)"] = .integer(Int64(index)) }
        large["$os"] = "iOS"
        let small: Properties = ["a": 1, "$os": "Linux"]
        let disjoint: Properties = ["a": 1, "b": 2]
        #expect(large.sharesKey(with: small))
        #expect(small.sharesKey(with: large))
        #expect(!large.sharesKey(with: disjoint))
        #expect(!disjoint.sharesKey(with: large))
        #expect(!Properties().sharesKey(with: large))
        #expect(!large.sharesKey(with: Properties()))
        // With the other side's key mask: the same answers.
        for (left, right) in [(large, small), (small, large), (large, disjoint), (disjoint, large), (Properties(), large), (large, Properties())] {
            #expect(left.sharesKey(with: right, keyMask: right.keyMask) == left.sharesKey(with: right))
        }
    }

    @Test("a key mask never hides a shared key: 2 000 random key sets")
    func keyMaskNeverHidesSharedKeys() {
        var random = SplitMix64(seed: 17)
        func keys(_ count: Int) -> Properties {
            var properties = Properties()
            for _ in 0..<count { properties["key\(random.next() % 200)"] = 1 }
            return properties
        }
        for _ in 0..<2000 {
            let left = keys(Int(random.next() % 12)), right = keys(Int(random.next() % 12))
            let shared = left.keys.contains { right.contains(key: $0) }
            #expect(left.sharesKey(with: right, keyMask: right.keyMask) == shared)
        }
    }

    @Test("layers merge preset < super < autotrack < caller, keeping first positions")
    func layeredPrecedence() {
        let merged = Properties.layered(
            preset: ["$os": "Linux", "$screen_name": "preset", "shared": "preset"],
            superProperties: ["shared": "super", "plan": "free"],
            autotrack: ["$screen_name": "ViewController", "shared": "autotrack"],
            caller: ["shared": "caller", "plan": "pro", "extra": true]
        )
        #expect(merged.keys == ["$os", "$screen_name", "shared", "plan", "extra"])
        #expect(merged["$screen_name"] == "ViewController")
        #expect(merged["shared"] == "caller")
        #expect(merged["plan"] == "pro")
        #expect(PropertyLayer.allCases.sorted() == [.preset, .superProperties, .autotrack, .caller])
    }

    @Test("merge lets the other collection win and appends its new keys in its order")
    func mergeOrder() {
        let base: Properties = ["a": 1, "b": 2]
        let merged = base.merging(["c": 3, "a": 10])
        #expect(merged.keys == ["a", "b", "c"])
        #expect(merged["a"] == 10)
        #expect(base["a"] == 1)
    }
}
