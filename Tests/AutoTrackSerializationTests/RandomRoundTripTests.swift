import AutoTrackEvents
import AutoTrackSerialization
import Testing

@Suite("Seeded random events survive encode → decode")
struct RandomRoundTripTests {
    @Test("10 000 random events round-trip in both layouts and as one batch")
    func tenThousand() throws {
        var generator = RandomEvents(seed: 0xA070_74AC)
        let events = generator.make(count: 10_000)
        let decoder = EventJSONDecoder(dateOffsetSeconds: -7 * 3600)
        let compact = EventJSONEncoder(dateOffsetSeconds: -7 * 3600)
        let pretty = EventJSONEncoder(layout: .pretty, dateOffsetSeconds: -7 * 3600)
        var failures = 0
        for event in events {
            let viaCompact = try decoder.decodeEvent(from: compact.encode(event))
            let viaPretty = try decoder.decodeEvent(from: pretty.encode(event))
            if viaCompact != event || viaPretty != event {
                failures += 1
                if failures <= 3 { Issue.record("round trip changed \(compact.encodeToString(event))") }
            }
        }
        #expect(failures == 0)
        #expect(try decoder.decodeNDJSON(from: compact.encodeNDJSON(events)) == events)
    }

    @Test("a string in the date form reads back as a date (documented)")
    func dateFormStrings() throws {
        let event = Fixtures.event(properties: ["when": "2022-04-01 08:23:28.348", "not": "2022-02-30 00:00:00.000"])
        let decoded = try EventJSONDecoder().decodeEvent(from: EventJSONEncoder().encode(event))
        #expect(decoded.properties["when"] == .date(Timestamp(millisecondsSince1970: 1_648_801_408_348)))
        #expect(decoded.properties["not"] == "2022-02-30 00:00:00.000", "an impossible date stays text")
        let literal = try EventJSONDecoder(recognizesDates: false).decodeEvent(from: EventJSONEncoder().encode(event))
        #expect(literal == event)
    }
}
