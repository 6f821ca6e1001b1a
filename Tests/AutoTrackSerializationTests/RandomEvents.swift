import AutoTrackEvents

/// A seeded generator of hostile but valid events: emoji, combining marks, control
/// characters, very long strings, extreme numbers and dates.
struct RandomEvents {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    static let alphabet: [String] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "é", "e\u{301}",
        "中", "全埋点", "😀", "👨‍👩‍👧‍👦", "🇨🇳", "\u{2028}", "\u{FEFF}", "\u{10FFFF}", "\u{FFFD}", "$", "{", "}", "[", ",", ":",
    ]

    mutating func string(maxLength: Int = 24) -> String {
        if Int.random(in: 0..<200, using: &random) == 0 {
            // A very long string (still within 8191 bytes so it stays valid).
            return String(repeating: "长", count: Int.random(in: 1000...2700, using: &random))
        }
        let length = Int.random(in: 0...maxLength, using: &random)
        var text = ""
        for _ in 0..<length { text += Self.alphabet.randomElement(using: &random)! }
        return text
    }

    mutating func key() -> String {
        let first = Array("abcxyzABCXYZ_$")
        let rest = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
        var key = String(first.randomElement(using: &random)!)
        for _ in 0..<Int.random(in: 0...30, using: &random) { key.append(rest.randomElement(using: &random)!) }
        return (try? PropertyRules.standard.checkName(key)) != nil ? key : "k_" + key
    }

    mutating func double() -> Double {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return [0.0, -0.0, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
                        .leastNormalMagnitude, 0.1, 1e-300, 1e300].randomElement(using: &random)!
        case 1: return Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (Bool.random(using: &random) ? 1 : -1)
        default: return Double.random(in: -1e6...1e6, using: &random)
        }
    }

    mutating func value() -> PropertyValue {
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            // Avoid strings of exactly the date form: those read back as dates by design.
            return .string(string())
        case 1:
            return .integer([Int64.min, Int64.max, 0, -1].randomElement(using: &random).flatMap {
                Bool.random(using: &random) ? $0 : nil
            } ?? Int64(bitPattern: random.next()))
        case 2: return .number(double())
        case 3: return .bool(Bool.random(using: &random))
        case 4:
            return .date(Timestamp(millisecondsSince1970: Int64.random(
                in: Timestamp.earliestPropertyDate.millisecondsSince1970...Timestamp.latestPropertyDate.millisecondsSince1970,
                using: &random)))
        default:
            return .strings((0..<Int.random(in: 0...5, using: &random)).map { _ in string(maxLength: 8) })
        }
    }

    mutating func event() -> Event {
        var properties = Properties()
        for _ in 0..<Int.random(in: 0...40, using: &random) { properties[key()] = value() }
        let anonymous = "anon-" + string(maxLength: 6)
        let identity = Bool.random(using: &random)
            ? Identity.anonymous(anonymous)
            : Identity.loggedIn("user-" + string(maxLength: 6), anonymousID: Bool.random(using: &random) ? anonymous : nil)
        let names = EventName.presets + [EventName(rawValue: key())!]
        return Event(
            id: EventID(truncatingBits: random.next()),
            name: names.randomElement(using: &random)!,
            time: Timestamp(millisecondsSince1970: Int64(bitPattern: random.next())),
            identity: identity,
            library: LibraryInfo(
                name: string(maxLength: 5), version: string(maxLength: 5),
                method: Bool.random(using: &random) ? .autoTrack : .code,
                appVersion: Bool.random(using: &random) ? string(maxLength: 5) : nil),
            properties: properties)
    }

    mutating func make(count: Int) -> [Event] { (0..<count).map { _ in event() } }

    static func make(seed: UInt64, count: Int) -> [Event] {
        var generator = RandomEvents(seed: seed)
        return generator.make(count: count)
    }
}
