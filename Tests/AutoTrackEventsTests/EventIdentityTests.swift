import AutoTrackEvents
import Foundation
import Testing

@Suite("Event identifiers, clocks and timestamps are injectable and exact")
struct EventIdentityTests {
    @Test("a seeded generator repeats its sequence; different seeds differ")
    func seeded() {
        let first = SeededEventIDGenerator(seed: 42)
        let second = SeededEventIDGenerator(seed: 42)
        let other = SeededEventIDGenerator(seed: 43)
        let a = (0..<100).map { _ in first.next() }
        let b = (0..<100).map { _ in second.next() }
        let c = (0..<100).map { _ in other.next() }
        #expect(a == b)
        #expect(a != c)
        #expect(a.allSatisfy { $0.rawValue >= 0 })
        #expect(Set(a).count == 100)
    }

    @Test("a sequential generator counts from its start and is safe across threads")
    func sequential() async {
        let generator = SequentialEventIDGenerator(start: 1)
        let ids = await withTaskGroup(of: [EventID].self) { group in
            for _ in 0..<8 { group.addTask { (0..<1000).map { _ in generator.next() } } }
            var all: [EventID] = []
            for await part in group { all += part }
            return all
        }
        #expect(Set(ids).count == 8000)
        #expect(ids.map(\.rawValue).min() == 1)
        #expect(ids.map(\.rawValue).max() == 8000)
    }

    @Test("generated event ids are JSON-safe: 0 ... 2^53 - 1, exact as doubles")
    func idRange() {
        #expect(EventID(rawValue: -1) == nil)
        #expect(EventID(truncatingBits: UInt64.max).rawValue == (1 << 53) - 1)
        let generators: [any EventIDGenerator] = [SystemRandomEventIDGenerator(), SeededEventIDGenerator(seed: 7)]
        for generator in generators {
            for _ in 0..<10_000 {
                let id = generator.next().rawValue
                #expect(id >= 0 && id <= EventID.maximumGenerated)
                #expect(Int64(exactly: Double(id)) == id, "a double holds \(id) exactly")
            }
        }
        let sequential = SequentialEventIDGenerator(start: EventID.maximumGenerated)
        #expect(sequential.next().rawValue == EventID.maximumGenerated)
        #expect(sequential.next().rawValue == 0, "wraps within the safe range")
    }

    @Test("system-random ids drawn in blocks: 10 000 from four threads are distinct and not sequential")
    func systemRandomBlocks() async {
        let generator = SystemRandomEventIDGenerator()
        let ids = await withTaskGroup(of: [Int64].self) { group in
            for _ in 0..<4 { group.addTask { (0..<2500).map { _ in generator.next().rawValue } } }
            var all: [Int64] = []
            for await part in group { all += part }
            return all
        }
        #expect(ids.count == 10_000)
        #expect(Set(ids).count == 10_000, "53 random bits: a repeat among 10 000 has odds of about 5·10⁻⁹")
        // Blocks are not handed out twice: a second generator does not replay the first.
        let other = SystemRandomEventIDGenerator()
        #expect(Set((0..<300).map { _ in other.next().rawValue }).isDisjoint(with: Set(ids)))
        // Roughly half of the bits are set: the words are random, not zero-filled.
        let ones = ids.prefix(1000).reduce(0) { $0 + $1.nonzeroBitCount }
        #expect((20_000...33_000).contains(ones), "\(ones) bits set in 1 000 ids of 53 bits")
    }

    @Test("a manual clock moves only when told")
    func manualClock() {
        let clock = ManualTimestampSource(start: Timestamp(millisecondsSince1970: 1_648_801_408_348))
        #expect(clock.now().millisecondsSince1970 == 1_648_801_408_348)
        clock.advance(by: 1500)
        #expect(clock.now().millisecondsSince1970 == 1_648_801_409_848)
        clock.set(Timestamp(millisecondsSince1970: 0))
        #expect(clock.now() == Timestamp(millisecondsSince1970: 0))
    }

    @Test("Date conversion keeps whole milliseconds and clamps the impossible")
    func dateConversion() {
        let time = Timestamp(millisecondsSince1970: 1_648_801_408_348)
        #expect(Timestamp(time.date) == time)
        #expect(Timestamp(Date(timeIntervalSince1970: -0.0005)).millisecondsSince1970 == -1)
        #expect(Timestamp(Date(timeIntervalSince1970: 1e300)).millisecondsSince1970 == Int64.max)
        #expect(Timestamp(Date(timeIntervalSince1970: -1e300)).millisecondsSince1970 == Int64.min)
        let now = SystemTimestampSource().now()
        #expect(now.millisecondsSince1970 > 1_600_000_000_000)
    }

    @Test("identity constructors file events under the right id")
    func identityShapes() {
        let anonymous = Identity.anonymous("device")
        #expect(anonymous.distinctID == "device" && anonymous.loginID == nil)
        let logged = Identity.loggedIn("user-7", anonymousID: "device")
        #expect(logged.distinctID == "user-7" && logged.anonymousID == "device" && logged.loginID == "user-7")
    }
}
