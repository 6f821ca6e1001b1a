/// AutoTrackEvents: `Event`, `Properties` appear in this file's public API.
public import AutoTrackEvents

/// Encodes events to JSON by hand: deterministic, complete and fast.
///
/// **Key order.** An event's keys are always written in this order, so equal events
/// give equal bytes:
///
/// 1. `event` — the name
/// 2. `time` — epoch milliseconds, an exact integer
/// 3. `properties` — in the event's insertion order
/// 4. `type` — `"track"`
/// 5. `distinct_id`, then `anonymous_id` and `login_id` when present
/// 6. `lib` — `$lib`, `$lib_version`, `$lib_method`, then `$app_version` when present
/// 7. `_track_id` — the event id, an exact integer
///
/// The first three match the samples printed by autotrack tutorials; the rest follow
/// the collector's record.
///
/// **Values.** Strings are fully escaped (see the writer's rules: quote, backslash and
/// every control character); integers are exact; doubles use the shortest text that
/// reads back to the same value; date properties are `"yyyy-MM-dd HH:mm:ss.SSS"` in
/// the time zone ``dateOffsetSeconds`` east of UTC (UTC by default); `time` is epoch
/// milliseconds.
///
/// **Layouts.** ``Layout/compact`` has no whitespace; ``Layout/pretty`` indents by two
/// spaces and separates keys with `" : "`, the layout of the tutorials' printed events.
public struct EventJSONEncoder: Sendable {
    /// Whitespace style.
    public enum Layout: Sendable, Hashable {
        /// No whitespace: the wire and storage form.
        case compact
        /// Two-space indentation and `" : "` separators, for people to read.
        case pretty
    }

    /// The whitespace style.
    public var layout: Layout
    /// The time zone of date-typed properties, in seconds east of UTC.
    public var dateOffsetSeconds: Int

    /// Creates an encoder.
    public init(layout: Layout = .compact, dateOffsetSeconds: Int = 0) {
        self.layout = layout
        self.dateOffsetSeconds = dateOffsetSeconds
    }

    /// The JSON text of one event, as UTF-8 bytes.
    public func encode(_ event: Event) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 512 + event.properties.count * 48)
        write(event, into: &writer, indent: 0)
        return writer.finish()
    }

    /// The JSON text of one event.
    public func encodeToString(_ event: Event) -> String {
        String(decoding: encode(event), as: UTF8.self)
    }

    /// The wire form of the event whose properties are `prefix`'s followed by
    /// `event.properties` — byte for byte what ``encode(_:)`` writes for that merged
    /// event — with `prefix` copied as it was encoded once instead of encoded again.
    /// When a key of `event.properties` is also in `prefix` (its value would replace
    /// the prefix's in place), or the layout is pretty, the merged event is encoded
    /// the ordinary way.
    package func encode(_ event: Event, after prefix: EncodedPropertyPrefix) -> [UInt8] {
        var noTails: EncodedEventTails? = nil
        return encode(event, after: prefix, tails: &noTails)
    }

    /// ``encode(_:after:)``, with the members after the properties — type, identity
    /// and library — taken from `tails` when an earlier event had the same ones.
    package func encode(_ event: Event, after prefix: EncodedPropertyPrefix, tails: inout EncodedEventTails?) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 512 + prefix.json.count + event.properties.count * 48)
        write(event, after: prefix, tails: &tails, into: &writer)
        return writer.finish()
    }

    /// Writes what ``encode(_:after:tails:)`` returns into `writer`.
    func write(_ event: Event, after prefix: EncodedPropertyPrefix, tails: inout EncodedEventTails?, into writer: inout JSONWriter) {
        guard layout == .compact, prefix.dateOffsetSeconds == dateOffsetSeconds,
              !event.properties.sharesKey(with: prefix.properties, keyMask: prefix.keyMask) else {
            var merged = event
            merged.properties = prefix.properties.merging(event.properties)
            write(merged, into: &writer, indent: 0)
            return
        }
        write(event, prefix: prefix, tails: &tails, into: &writer, indent: 0)
    }

    /// The JSON text of a property collection alone, as an object.
    public func encode(_ properties: Properties) -> [UInt8] {
        var writer = JSONWriter()
        write(properties, into: &writer, indent: 0)
        return writer.finish()
    }

    // MARK: Writing

    func write(_ event: Event, into writer: inout JSONWriter, indent: Int) {
        var noTails: EncodedEventTails? = nil
        write(event, prefix: nil, tails: &noTails, into: &writer, indent: indent)
    }

    /// Writes `event`, its properties after the encoded `prefix` and its members after
    /// them from `tails` (both compact layout only).
    private func write(
        _ event: Event, prefix: EncodedPropertyPrefix?, tails: inout EncodedEventTails?, into writer: inout JSONWriter, indent: Int
    ) {
        let inner = indent + 1
        writer.write(0x7B) // {
        key("event", first: true, into: &writer, indent: inner)
        writer.writeString(event.name.rawValue)
        key("time", into: &writer, indent: inner)
        writer.writeInteger(event.time.millisecondsSince1970)
        key("properties", into: &writer, indent: inner)
        if let prefix, !prefix.json.isEmpty {
            writer.write(0x7B)
            prefix.json.withUnsafeBufferPointer { writer.write($0) }
            for (name, value) in event.properties {
                writer.write(0x2C)
                writer.writeString(name)
                writer.write(0x3A)
                write(value, into: &writer, indent: inner)
            }
            writer.write(0x7D)
        } else {
            write(event.properties, into: &writer, indent: inner)
        }
        if tails != nil {
            tails!.write(for: event, encoder: self, into: &writer)
        } else {
            writeTail(of: event, into: &writer, indent: indent)
        }
        writer.writeInteger(event.id.rawValue)
        close(0x7D, into: &writer, indent: indent)
    }

    /// The members after the properties up to the `_track_id` key, which depend only
    /// on the event's type, identity and library: `,"type":…,"lib":{…},"_track_id":`.
    fileprivate func writeTail(of event: Event, into writer: inout JSONWriter, indent: Int) {
        let inner = indent + 1
        key("type", into: &writer, indent: inner)
        writer.writeString(event.type.rawValue)
        key("distinct_id", into: &writer, indent: inner)
        writer.writeString(event.identity.distinctID)
        if let anonymous = event.identity.anonymousID {
            key("anonymous_id", into: &writer, indent: inner)
            writer.writeString(anonymous)
        }
        if let login = event.identity.loginID {
            key("login_id", into: &writer, indent: inner)
            writer.writeString(login)
        }
        key("lib", into: &writer, indent: inner)
        write(event.library, into: &writer, indent: inner)
        key("_track_id", into: &writer, indent: inner)
    }

    private func write(_ library: LibraryInfo, into writer: inout JSONWriter, indent: Int) {
        let inner = indent + 1
        writer.write(0x7B)
        key("$lib", first: true, into: &writer, indent: inner)
        writer.writeString(library.name)
        key("$lib_version", into: &writer, indent: inner)
        writer.writeString(library.version)
        key("$lib_method", into: &writer, indent: inner)
        writer.writeString(library.method.rawValue)
        if let appVersion = library.appVersion {
            key("$app_version", into: &writer, indent: inner)
            writer.writeString(appVersion)
        }
        close(0x7D, into: &writer, indent: indent)
    }

    func write(_ properties: Properties, into writer: inout JSONWriter, indent: Int) {
        writer.write(0x7B)
        if properties.isEmpty {
            writer.write(0x7D)
            return
        }
        let inner = indent + 1
        var first = true
        for (name, value) in properties {
            separate(first: first, into: &writer, indent: inner)
            first = false
            writer.writeString(name)
            colon(into: &writer)
            write(value, into: &writer, indent: inner)
        }
        close(0x7D, into: &writer, indent: indent)
    }

    private func write(_ value: PropertyValue, into writer: inout JSONWriter, indent: Int) {
        switch value {
        case .string(let text): writer.writeString(text)
        case .integer(let number): writer.writeInteger(number)
        case .number(let number): writer.writeDouble(number)
        case .bool(let flag): flag ? writer.writeRaw("true") : writer.writeRaw("false")
        case .date(let time): writer.writeDate(time, offsetSeconds: dateOffsetSeconds)
        case .strings(let list):
            writer.write(0x5B) // [
            if list.isEmpty {
                writer.write(0x5D)
                return
            }
            for (position, element) in list.enumerated() {
                separate(first: position == 0, into: &writer, indent: indent + 1)
                writer.writeString(element)
            }
            close(0x5D, into: &writer, indent: indent)
        }
    }

    // MARK: Layout

    /// Writes the separator before an element: a comma unless first, then the
    /// newline and indentation of the pretty layout.
    @inline(__always)
    func separate(first: Bool, into writer: inout JSONWriter, indent: Int) {
        if !first { writer.write(0x2C) }
        if layout == .pretty { writer.writeNewline(indent: indent) }
    }

    @inline(__always)
    private func key(_ name: StaticString, first: Bool = false, into writer: inout JSONWriter, indent: Int) {
        separate(first: first, into: &writer, indent: indent)
        writer.write(0x22)
        writer.writeRaw(name)
        writer.write(0x22)
        colon(into: &writer)
    }

    @inline(__always)
    private func colon(into writer: inout JSONWriter) {
        if layout == .pretty { writer.writeRaw(" : ") } else { writer.write(0x3A) }
    }

    /// Writes the closing bracket of a non-empty container on its own line (pretty)
    /// or directly (compact).
    @inline(__always)
    func close(_ bracket: UInt8, into writer: inout JSONWriter, indent: Int) {
        if layout == .pretty { writer.writeNewline(indent: indent) }
        writer.write(bracket)
    }
}

/// Properties that begin many events — a tracker's presets — encoded once, compact:
/// `"key":value` pairs joined by commas, without braces.
package struct EncodedPropertyPrefix: Sendable {
    /// The properties.
    package let properties: Properties
    /// Their compact JSON members.
    let json: [UInt8]
    /// The time zone their dates were written in.
    let dateOffsetSeconds: Int
    /// The length of their JSON members.
    package var byteCount: Int { json.count }
    /// The properties' `Properties.keyMask`: whether an event's key may be one of
    /// them is one bit test.
    let keyMask: UInt64

    /// Encodes `properties` with `encoder`'s date offset.
    package init(_ properties: Properties, encoder: EventJSONEncoder) {
        self.properties = properties
        keyMask = properties.keyMask
        dateOffsetSeconds = encoder.dateOffsetSeconds
        var compact = encoder
        compact.layout = .compact
        let object = compact.encode(properties)
        json = Array(object.dropFirst().dropLast()) // without { and }
    }
}

/// The members events of the same type, identity and library share after their
/// properties, encoded once per combination (the last few kept).
package struct EncodedEventTails: Sendable {
    /// One tail and what it was written for.
    private struct Tail: Sendable {
        let type: RecordType
        let identity: Identity
        let library: LibraryInfo
        /// The ``identitySource`` it was written under, held: while the tail is kept no
        /// other object can take its address.
        let source: (any AnyObject & Sendable)?
        let json: [UInt8]
    }

    private var entries: [Tail] = []

    /// What the identity and library of the next events come from, when their writer
    /// knows: events encoded under the same non-`nil` source have equal identities,
    /// and libraries that differ at most in their method. A tail is then found by
    /// source, type and method — integers — instead of comparing identities and
    /// libraries, whose comparison copied their strings.
    package var identitySource: (any AnyObject & Sendable)?

    /// No tails yet.
    package init() {}

    /// Writes the tail of `event`: kept from an earlier event, or written with
    /// `encoder` and kept. The kept tails are compared in place, not copied out (a
    /// copy retained every string of the identity and library, for every event).
    fileprivate mutating func write(for event: Event, encoder: EventJSONEncoder, into writer: inout JSONWriter) {
        // Read through the buffer: subscripting the array copied each tail.
        let kept = entries.withUnsafeBufferPointer { tails in
            guard var tail = tails.baseAddress else { return false }
            for _ in 0..<tails.count {
                let fits = if let identitySource, tail.pointee.source === identitySource {
                    tail.pointee.type == event.type && tail.pointee.library.method == event.library.method
                } else {
                    tail.pointee.type == event.type && tail.pointee.identity == event.identity && tail.pointee.library == event.library
                }
                if fits {
                    tail.pointee.json.withUnsafeBufferPointer { writer.write($0) }
                    return true
                }
                tail += 1
            }
            return false
        }
        if kept { return }
        var tail = JSONWriter(reservingCapacity: 256)
        encoder.writeTail(of: event, into: &tail, indent: 0)
        let json = tail.finish()
        if entries.count == 4 { entries.removeFirst() }
        entries.append(Tail(type: event.type, identity: event.identity, library: event.library, source: identitySource, json: json))
        json.withUnsafeBufferPointer { writer.write($0) }
    }
}
