extension LocalCollector {
    /// What to do with one request.
    public enum Behaviour: Sendable, Hashable {
        /// Decode, apply the ``Rules``, record, answer 200.
        case accept
        /// Answer this status without recording.
        case status(Int)
        /// Wait this long, then accept (a client with a shorter timeout gives up).
        case hang(seconds: Double)
        /// Close the connection without answering or recording.
        case dropConnection
        /// Record the batch, then close the connection without answering (the client
        /// cannot know it was stored).
        case storeThenDrop
    }

    /// Refusals a real collector makes on content.
    public struct Rules: Sendable, Hashable {
        /// Answer 413 to a batch of more events than this.
        public var maximumEventsPerBatch: Int?
        /// Answer 400 to a batch holding an event of one of these names (a poison event).
        public var refusedEventNames: Set<String>

        /// Creates rules; none by default.
        public init(maximumEventsPerBatch: Int? = nil, refusedEventNames: Set<String> = []) {
            self.maximumEventsPerBatch = maximumEventsPerBatch
            self.refusedEventNames = refusedEventNames
        }
    }

    /// The collector's bounds.
    public struct Limits: Sendable, Hashable {
        /// The most bytes of request line and headers (431 past it).
        public var maximumHeaderBytes: Int
        /// The largest body (413 past it).
        public var maximumBodyBytes: Int
        /// The largest decompressed body (400 past it: a gzip bomb).
        public var maximumInflatedBytes: Int
        /// Connections served at once. At the cap a new connection takes the slot of
        /// the one that has been reading its request longest, if that one has taken
        /// more than ``slowRequestSeconds`` (it is answered 503); otherwise the new one
        /// is answered 503.
        public var maximumConnections: Int
        /// How long one read may wait for a client that sends nothing (closed without
        /// an answer past it).
        public var readTimeoutSeconds: Double
        /// The request line and headers must arrive within this many seconds of the
        /// connection (408 past it), however the client paces them.
        public var headerDeadlineSeconds: Double
        /// The whole request, body included, must arrive within this many seconds of
        /// the connection (408 past it).
        public var requestDeadlineSeconds: Double
        /// A request still being read after this many seconds may give its slot to a
        /// new connection when the collector is full: slow clients cannot starve
        /// quick ones.
        public var slowRequestSeconds: Double
        /// After refusing a request whose body it did not read (413, 431, 411, 408),
        /// the collector reads and discards what the client still sends for up to this
        /// many seconds before closing, so the client can read the answer.
        public var lingerSeconds: Double
        /// The most bytes discarded while lingering.
        public var maximumLingerBytes: Int

        /// Creates limits.
        public init(
            maximumHeaderBytes: Int = 16 << 10, maximumBodyBytes: Int = 8 << 20, maximumInflatedBytes: Int = 32 << 20,
            maximumConnections: Int = 64, readTimeoutSeconds: Double = 5, headerDeadlineSeconds: Double = 5,
            requestDeadlineSeconds: Double = 30, slowRequestSeconds: Double = 0.5, lingerSeconds: Double = 2,
            maximumLingerBytes: Int = 64 << 20
        ) {
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumBodyBytes = maximumBodyBytes
            self.maximumInflatedBytes = maximumInflatedBytes
            self.maximumConnections = max(1, maximumConnections)
            self.readTimeoutSeconds = Self.positive(readTimeoutSeconds, or: 5)
            self.headerDeadlineSeconds = Self.positive(headerDeadlineSeconds, or: 5)
            self.requestDeadlineSeconds = max(self.headerDeadlineSeconds, Self.positive(requestDeadlineSeconds, or: 30))
            self.slowRequestSeconds = Self.positive(slowRequestSeconds, or: 0.5)
            self.lingerSeconds = Self.positive(lingerSeconds, or: 2)
            self.maximumLingerBytes = max(0, maximumLingerBytes)
        }

        /// `value` when it is a positive finite number of seconds, else `fallback`.
        private static func positive(_ value: Double, or fallback: Double) -> Double {
            value.isFinite && value > 0 ? min(value, 86_400) : fallback
        }
    }

    /// What the collector has done.
    public struct Counts: Sendable, Hashable, CustomStringConvertible {
        /// Requests read.
        public var requests = 0
        /// Batches stored.
        public var batches = 0
        /// Events received, duplicates included.
        public var events = 0
        /// Events discarded as duplicates of one already stored.
        public var duplicates = 0
        /// Requests answered 4xx for their framing or content.
        public var refused = 0
        /// Connections refused at the connection limit.
        public var refusedConnections = 0
        /// Slow requests whose slot went to a new connection at the limit (answered 503).
        public var evictedConnections = 0
        /// Requests that missed their header or request deadline (answered 408).
        public var timedOut = 0
        /// Settings documents served (200).
        public var settingsServed = 0
        /// Settings requests answered 304: the client held the document.
        public var settingsNotModified = 0

        /// `requests 3, batches 2, events 40 (0 duplicates), refused 1`.
        public var description: String {
            "requests \(requests), batches \(batches), events \(events) (\(duplicates) duplicates), refused \(refused), "
                + "refused connections \(refusedConnections), evicted \(evictedConnections), timed out \(timedOut)"
        }
    }

    /// One request or connection the collector refused, as it happened.
    public struct Refusal: Sendable, Hashable, CustomStringConvertible {
        /// The status answered.
        public var status: Int
        /// Why, in words (the answer's body).
        public var reason: String

        /// Creates a refusal record.
        public init(status: Int, reason: String) {
            self.status = status
            self.reason = reason
        }

        /// `refused 400: invalid form body: …`.
        public var description: String { "refused \(status): \(reason)" }
    }
}
