import AutoTrackEvents
import Testing

@Suite("Validation: typed errors for caller input, counted repairs for SDK values")
struct ValidationTableTests {
    static let rules = PropertyRules.standard

    static let reservedNames = [
        "distinct_id", "original_id", "time", "properties", "id", "first_id", "second_id",
        "users", "events", "event", "user_id", "date", "datetime", "event_id", "device_id",
    ]

    @Test("every reserved name is refused in any letter case, as a property key and as an event name", arguments: reservedNames)
    func reservedName(name: String) {
        for variant in [name, name.uppercased(), name.prefix(1).uppercased() + name.dropFirst()] {
            #expect(throws: ValidationError.invalidPropertyKey(variant, .reserved(matched: name))) {
                try Self.rules.validated([variant: "x"])
            }
            #expect(throws: ValidationError.invalidEventName(variant, .reserved(matched: name))) {
                try EventName(validating: variant)
            }
        }
    }

    @Test("reserved prefixes are refused", arguments: [
        ("user_tag", "user_tag"), ("user_tag_vip", "user_tag"), ("USER_GROUP1", "user_group"), ("User_Group_x", "user_group"),
    ])
    func reservedPrefix(key: String, prefix: String) {
        #expect(throws: ValidationError.invalidPropertyKey(key, .reserved(matched: prefix))) {
            try Self.rules.validated([key: 1])
        }
    }

    @Test("near-misses of reserved names are allowed", arguments: ["times", "event_name", "$time", "ids", "user", "users1", "_id", "user_ta"])
    func allowedNearMiss(key: String) throws {
        let checked = try Self.rules.validated([key: 1])
        #expect(checked[key] == 1)
    }

    @Test("reserved lists changed after creation apply at once, `$` names and an empty prefix included")
    func changedReservedLists() throws {
        var rules = PropertyRules()
        #expect(throws: Never.self) { try rules.checkName("$secret") }
        rules.reservedNames.insert("$secret")
        #expect(throws: NameViolation.reserved(matched: "$secret")) { try rules.checkName("$secret") }
        #expect(throws: NameViolation.reserved(matched: "$secret")) { try rules.checkName("$Secret") }
        rules.reservedPrefixes.append("$x")
        #expect(throws: NameViolation.reserved(matched: "$x")) { try rules.checkName("$xyz") }
        #expect(throws: Never.self) { try rules.checkName("$ok") }
        rules.reservedPrefixes.append("")
        #expect(throws: NameViolation.reserved(matched: "")) { try rules.checkName("anything") }
        rules.reservedNames = []
        rules.reservedPrefixes = []
        #expect(throws: Never.self) { try rules.checkName("time") }
        #expect(rules != PropertyRules())
    }

    static let badKeys: [(String, NameViolation)] = [
        ("", .empty),
        ("1abc", .invalidFirstCharacter("1")),
        ("-key", .invalidFirstCharacter("-")),
        (" key", .invalidFirstCharacter(" ")),
        ("key name", .invalidCharacter(" ", offset: 3)),
        ("key-name", .invalidCharacter("-", offset: 3)),
        ("key.name", .invalidCharacter(".", offset: 3)),
        ("ключ", .invalidFirstCharacter("к")),
        ("k\u{e9}", .invalidCharacter("\u{e9}", offset: 1)),
        ("ke\u{301}y", .invalidCharacter("e\u{301}", offset: 2)),
        ("tab\tkey", .invalidCharacter("\t", offset: 3)),
        ("emoji😀", .invalidCharacter("😀", offset: 5)),
        (String(repeating: "a", count: 101), .tooLong(length: 101, limit: 100)),
    ]

    @Test("bad keys get the documented violation", arguments: badKeys)
    func badKey(key: String, violation: NameViolation) {
        #expect(throws: ValidationError.invalidPropertyKey(key, violation)) {
            try Self.rules.validated(["ok": 1, key: "value"])
        }
    }

    @Test("boundary keys are accepted", arguments: ["a", "_", "$", "$AppClick", "a1_$", String(repeating: "z", count: 100)])
    func goodKey(key: String) throws {
        #expect(try Self.rules.validated([key: true]).count == 1)
    }

    @Test("bad event names are refused with the reason", arguments: [
        ("", NameViolation.empty), ("9lives", .invalidFirstCharacter("9")), ("event", .reserved(matched: "event")),
        ("buy now", .invalidCharacter(" ", offset: 3)),
    ])
    func badEventName(name: String, violation: NameViolation) {
        #expect(throws: ValidationError.invalidEventName(name, violation)) {
            try EventName(validating: name)
        }
        #expect(EventName(rawValue: name) == nil)
    }

    @Test("preset names are valid names")
    func presetsAreValid() throws {
        for preset in EventName.presets {
            #expect(try EventName(validating: preset.rawValue) == preset)
        }
        #expect(EventName.appClick.rawValue == "$AppClick")
        #expect(EventName.appViewScreen.rawValue == "$AppViewScreen")
        #expect(EventName.appStart.rawValue == "$AppStart")
        #expect(EventName.appEnd.rawValue == "$AppEnd")
    }

    @Test("non-finite numbers are refused", arguments: [
        (Double.nan, NonFiniteKind.nan), (.infinity, .positiveInfinity), (-.infinity, .negativeInfinity),
        (Double.signalingNaN, .nan),
    ])
    func nonFinite(value: Double, kind: NonFiniteKind) {
        #expect(throws: ValidationError.nonFiniteNumber(key: "price", kind)) {
            try Self.rules.validated(["price": .number(value)])
        }
    }

    @Test("finite extremes are accepted", arguments: [Double.greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -0.0])
    func finiteExtremes(value: Double) throws {
        #expect(try Self.rules.validated(["x": .number(value)])["x"] == .number(value))
    }

    @Test("dates outside years 1…9999 are refused; the bounds are accepted")
    func dateRange() throws {
        let early = Timestamp(millisecondsSince1970: Timestamp.earliestPropertyDate.millisecondsSince1970 - 1)
        let late = Timestamp(millisecondsSince1970: Timestamp.latestPropertyDate.millisecondsSince1970 + 1)
        #expect(throws: ValidationError.dateOutOfRange(key: "d", early)) { try Self.rules.validated(["d": .date(early)]) }
        #expect(throws: ValidationError.dateOutOfRange(key: "d", late)) { try Self.rules.validated(["d": .date(late)]) }
        _ = try Self.rules.validated(["a": .date(.earliestPropertyDate), "b": .date(.latestPropertyDate)])
    }

    // MARK: Truncation

    /// Strings whose cut point falls inside a multi-byte character.
    static let longStrings: [(String, String)] = [
        ("ascii", String(repeating: "a", count: 9000)),
        ("2-byte é at the cut", String(repeating: "a", count: 8189) + String(repeating: "é", count: 10)),
        ("3-byte 中 at the cut", String(repeating: "a", count: 8189) + String(repeating: "中", count: 10)),
        ("4-byte emoji at the cut", String(repeating: "a", count: 8188) + String(repeating: "😀", count: 10)),
        ("flag pairs", String(repeating: "🇨🇳", count: 2000)),
        ("family emoji ZWJ sequence", String(repeating: "👨‍👩‍👧‍👦", count: 400)),
        ("combining marks", String(repeating: "e\u{301}\u{302}", count: 3000)),
        ("all CJK", String(repeating: "全埋点", count: 1000)),
    ]

    @Test("long strings are cut on a character boundary and marked", arguments: longStrings)
    func truncation(label: String, text: String) throws {
        var report = SanitizationReport()
        let checked = try Self.rules.validated(["s": .string(text)], report: &report)
        guard case .string(let cut)? = checked["s"] else {
            Issue.record("value is no longer a string")
            return
        }
        #expect(cut.utf8.count <= 8191, "\(label)")
        #expect(cut.hasSuffix("$"))
        let body = String(cut.dropLast())
        #expect(text.hasPrefix(body), "the kept part is a prefix made of whole characters")
        #expect(body.count == text.prefix(body.count).count)
        // The next whole character would not have fitted.
        let nextCharacter = text[text.index(text.startIndex, offsetBy: body.count)]
        #expect(body.utf8.count + nextCharacter.utf8.count > 8190)
        #expect(report.truncatedStrings == 1)
    }

    @Test("strings of exactly the limit are untouched; one byte more is cut")
    func truncationBoundary() throws {
        let exact = String(repeating: "x", count: 8191)
        #expect(try Self.rules.validated(["s": .string(exact)])["s"] == .string(exact))
        let over = exact + "y"
        #expect(try Self.rules.validated(["s": .string(over)])["s"] == .string(String(repeating: "x", count: 8190) + "$"))
    }

    @Test("list elements are truncated one by one and counted")
    func listTruncation() throws {
        var report = SanitizationReport()
        let long = String(repeating: "b", count: 9000)
        let checked = try Self.rules.validated(["tags": .strings(["short", long, long])], report: &report)
        guard case .strings(let list)? = checked["tags"] else {
            Issue.record("not a list")
            return
        }
        #expect(list[0] == "short")
        #expect(list[1].utf8.count == 8191 && list[1].hasSuffix("$"))
        #expect(report.truncatedStrings == 2)
    }

    // MARK: Sanitising

    @Test("SDK values are sanitised and every repair is counted, never thrown")
    func sanitising() {
        var report = SanitizationReport()
        let input: Properties = [
            "$screen_name": "ViewController",
            "bad key": "x",
            "time": 1,
            "ratio": .number(.nan),
            "far": .date(Timestamp(millisecondsSince1970: Int64.max)),
            "long": .string(String(repeating: "q", count: 10_000)),
            "ok": 3,
        ]
        let output = Self.rules.sanitized(input, report: &report)
        #expect(output.keys == ["$screen_name", "long", "ok"])
        #expect(report.droppedInvalidKeys == 1)
        #expect(report.droppedReservedKeys == 1)
        #expect(report.droppedNonFiniteNumbers == 1)
        #expect(report.droppedOutOfRangeDates == 1)
        #expect(report.truncatedStrings == 1)
        #expect(report.total == 5)
        #expect(!report.isClean)
    }

    @Test("identifiers must be non-empty and at most 255 bytes")
    func identifiers() throws {
        #expect(throws: ValidationError.invalidIdentifier(field: "distinct_id", .empty)) {
            try Self.rules.checkIdentity(Identity(distinctID: ""))
        }
        let long = String(repeating: "é", count: 128)
        #expect(throws: ValidationError.invalidIdentifier(field: "login_id", .tooLong(bytes: 256, limit: 255))) {
            try Self.rules.checkIdentity(Identity(distinctID: "device", anonymousID: "device", loginID: long))
        }
        try Self.rules.checkIdentity(.anonymous(String(repeating: "a", count: 255)))
    }

    @Test("makeEvent validates name, identity and properties in that order")
    func makeEvent() throws {
        var report = SanitizationReport()
        let identity = Identity.anonymous("device-1")
        #expect(throws: ValidationError.invalidEventName("bad name", .invalidCharacter(" ", offset: 3))) {
            try Self.rules.makeEvent(name: "bad name", properties: ["time": 1], time: .init(millisecondsSince1970: 0),
                                     identity: Identity(distinctID: ""), id: EventID(truncatingBits: 1), report: &report)
        }
        let event = try Self.rules.makeEvent(
            name: "purchase", properties: ["price": 9.5], time: .init(millisecondsSince1970: 5),
            identity: identity, id: EventID(truncatingBits: 7), report: &report)
        #expect(event.name.rawValue == "purchase")
        #expect(event.properties["price"] == 9.5)
        #expect(event.type == .track)
    }

    @Test("errors say what and why")
    func descriptions() {
        #expect(ValidationError.invalidPropertyKey("time", .reserved(matched: "time")).description
            == "invalid property key 'time': 'time' is reserved by the collector")
        #expect(ValidationError.nonFiniteNumber(key: "p", .nan).description == "property 'p' is nan; numbers must be finite")
        #expect(NameViolation.invalidCharacter("\t", offset: 3).description.contains("U+9"))
    }
}
