/// AutoTrackEvents: `Event` appears in this file's public API.
public import AutoTrackEvents

/// The clicks of a session, each counted once under the screen it happened on, with
/// what the element showed then — not what the screens show now, and never again under
/// another screen that shows the same element beneath it (an alert, a presented tab
/// bar).
public struct ClickHeat: Sendable, Codable, Hashable {
    /// The clicks on one element of one screen.
    public struct Entry: Sendable, Codable, Hashable {
        /// `$screen_name` at the click.
        public var screenName: String
        /// `$element_id`.
        public var elementID: String
        /// `$element_type`.
        public var type: String
        /// `$element_content` of the last click, when it had one.
        public var content: String?
        /// `$element_path`.
        public var path: String
        /// How many clicks.
        public var count: Int

        /// An entry.
        public init(screenName: String, elementID: String, type: String, content: String?, path: String, count: Int) {
            self.screenName = screenName
            self.elementID = elementID
            self.type = type
            self.content = content
            self.path = path
            self.count = count
        }
    }

    /// The entries, most clicked first, then in the order first clicked.
    public var entries: [Entry]

    /// The heat of the `$AppClick`s among `events`.
    public init(events: [Event]) {
        var order: [String] = []
        var byKey: [String: Entry] = [:]
        for event in events where event.name == .appClick {
            guard case .string(let id)? = event.properties["$element_id"] else { continue }
            let screen = Self.text(event.properties["$screen_name"]) ?? "—"
            let key = screen + "\u{0}" + id
            if byKey[key] == nil {
                order.append(key)
                byKey[key] = Entry(
                    screenName: screen, elementID: id, type: Self.text(event.properties["$element_type"]) ?? "?", content: nil,
                    path: Self.text(event.properties["$element_path"]) ?? "", count: 0)
            }
            byKey[key]?.count += 1
            byKey[key]?.content = Self.text(event.properties["$element_content"])
        }
        let ranked = order.enumerated().compactMap { index, key in byKey[key].map { (index, $0) } }
        entries = ranked.sorted { $0.1.count != $1.1.count ? $0.1.count > $1.1.count : $0.0 < $1.0 }.map(\.1)
    }

    /// No clicks.
    public init() { entries = [] }

    /// These entries, as they are.
    public init(entries: [Entry]) { self.entries = entries }

    static func text(_ value: PropertyValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }
}
