import Foundation

/// One watch event (docs/recommendations-api.md, "Events"): what a client saw a person do with a
/// post. The one type from the wire to the store: a client encodes it into `POST /api/v1/events`,
/// the server decodes it (refusing what breaks the schema, with a message naming the field), the
/// store records it and the ranking code folds it. Its JSON is the wire's: snake_case, `at` in
/// ISO 8601, `event_id` a lowercase UUID.
public struct WatchEvent: Codable, Sendable, Equatable, Hashable {
    /// The client's id: a resent event (same person, same id) is stored once.
    public var id: UUID
    public var postID: Int64
    public var type: EventType
    public var at: Date
    public var watchedMs: Int?
    public var durationMs: Int?
    public var loops: Int?
    public var value: Int?

    public init(
        id: UUID = UUID(), postID: Int64, type: EventType, at: Date,
        watchedMs: Int? = nil, durationMs: Int? = nil, loops: Int? = nil, value: Int? = nil
    ) {
        self.id = id
        self.postID = postID
        self.type = type
        self.at = at
        self.watchedMs = watchedMs
        self.durationMs = durationMs
        self.loops = loops
        self.value = value
    }

    // MARK: - The schema's rules

    /// Six hours: no real watch of one post reports more.
    public static let maxMilliseconds = 21_600_000
    public static let maxLoops = 1_000
    /// A view that claims more than this many times the post's length is not a real watch.
    public static let maxWatchRatio = 50
    /// A skip is leaving within this long (KuaiRand's definition, which ranking uses too).
    public static let skipMilliseconds = 2_000

    enum CodingKeys: String, CodingKey {
        case id = "event_id"
        case type
        case postID = "post_id"
        case at
        case watchedMs = "watched_ms"
        case durationMs = "duration_ms"
        case loops
        case value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(postID, forKey: .postID)
        try container.encode(Self.timestamp(at), forKey: .at)
        try container.encodeIfPresent(watchedMs, forKey: .watchedMs)
        try container.encodeIfPresent(durationMs, forKey: .durationMs)
        try container.encodeIfPresent(loops, forKey: .loops)
        try container.encodeIfPresent(value, forKey: .value)
    }

    /// Reads an event as `encode` writes it (a client's own queue, say). What a server accepts
    /// from a client is `checked(from:)`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let idText = try container.decode(String.self, forKey: .id)
        let atText = try container.decode(String.self, forKey: .at)
        guard let id = UUID(uuidString: idText) else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "\(idText) is not a UUID")
        }
        guard let at = Self.parseTime(atText) else {
            throw DecodingError.dataCorruptedError(forKey: .at, in: container, debugDescription: "\(atText) is not an ISO 8601 time")
        }
        self.init(
            id: id, postID: try container.decode(Int64.self, forKey: .postID), type: try container.decode(EventType.self, forKey: .type), at: at,
            watchedMs: try container.decodeIfPresent(Int.self, forKey: .watchedMs), durationMs: try container.decodeIfPresent(Int.self, forKey: .durationMs),
            loops: try container.decodeIfPresent(Int.self, forKey: .loops), value: try container.decodeIfPresent(Int.self, forKey: .value)
        )
    }

    /// Reads an event as a server must, field by field, so a field of the wrong JSON type, a
    /// missing one or one outside its range is refused as a `WatchEventProblem` naming it (null counts as absent),
    /// rather than as a generic decoding error. Whether `at` is too old or too far ahead is
    /// the receiver's to judge: it depends on its clock and retention.
    public static func checked(from decoder: any Decoder) throws(WatchEventProblem) -> WatchEvent {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
            throw WatchEventProblem(.invalid, "an event is a JSON object")
        }
        var fields = LenientFields(container: container)
        let idText = fields.take(.id, String.self, "a string")
        let typeName = fields.take(.type, String.self, "a string")
        let postID = fields.take(.postID, Int64.self, "an integer")
        let atText = fields.take(.at, String.self, "an ISO 8601 string")
        let watchedMs = fields.take(.watchedMs, Int.self, "an integer")
        let durationMs = fields.take(.durationMs, Int.self, "an integer")
        let loops = fields.take(.loops, Int.self, "an integer")
        let value = fields.take(.value, Int.self, "an integer")
        func refuse(_ why: String) -> WatchEventProblem {
            WatchEventProblem(.invalid, why, type: typeName, eventID: idText)
        }
        if let problem = fields.firstProblem { throw refuse(problem) }
        guard let typeName else { throw refuse("type is required") }
        guard let type = EventType(rawValue: typeName) else {
            throw WatchEventProblem(.unknownType, "unknown type \(WatchEventProblem.quoted(typeName))", type: typeName, eventID: idText)
        }
        guard let idText else { throw refuse("event_id is required") }
        guard let id = UUID(uuidString: idText) else { throw refuse("event_id \(WatchEventProblem.quoted(idText)) is not a UUID") }
        guard let atText else { throw refuse("at is required") }
        guard let at = Self.parseTime(atText) else { throw refuse("at \(WatchEventProblem.quoted(atText)) is not an ISO 8601 time") }
        guard let postID else { throw refuse("post_id is required") }
        guard postID > 0 else { throw refuse("post \(postID) does not exist") }
        // A field out of its range is refused whatever the type (one that ignores it too): the
        // documented schema promises it.
        let ranges: [(String, Int?, ClosedRange<Int>)] = [
            ("watched_ms", watchedMs, 0...Self.maxMilliseconds), ("duration_ms", durationMs, 1...Self.maxMilliseconds),
            ("loops", loops, 0...Self.maxLoops), ("value", value, 0...5),
        ]
        for (name, value, range) in ranges {
            if let value, !range.contains(value) { throw refuse(Self.outside(name, value, range)) }
        }
        var event = WatchEvent(id: id, postID: postID, type: type, at: at)
        func required(_ value: Int?, _ name: String, in range: ClosedRange<Int>) throws(WatchEventProblem) -> Int {
            guard let value else { throw refuse("\(name) is required") }
            guard range.contains(value) else { throw refuse(Self.outside(name, value, range)) }
            return value
        }
        switch type {
        case .view:
            let watched = try required(watchedMs, "watched_ms", in: 0...Self.maxMilliseconds)
            let duration = try required(durationMs, "duration_ms", in: 1...Self.maxMilliseconds)
            let ratio = Double(watched) / Double(duration)
            if ratio > Double(Self.maxWatchRatio) {
                throw refuse("watch ratio \(Self.formatted(ratio)) is above \(Self.maxWatchRatio)")
            }
            event.watchedMs = watched
            event.durationMs = duration
            event.loops = try required(loops ?? 0, "loops", in: 0...Self.maxLoops)
        case .skip:
            event.watchedMs = try required(watchedMs, "watched_ms", in: 0...Self.skipMilliseconds)
        case .rating:
            event.value = try required(value, "value", in: 0...5)
        case .impression, .like, .unlike, .favorite, .unfavorite, .download, .share, .notInterested, .hideUploader:
            break
        }
        return event
    }

    /// `at` as clients write it: ISO 8601, UTC, milliseconds.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// ISO 8601 with or without fractional seconds, `Z` or a numeric offset.
    public static func parseTime(_ text: String) -> Date? {
        guard text.count <= 64 else { return nil }
        for style in timeStyles {
            if let date = try? style.parse(text) { return date }
        }
        return nil
    }

    private static let timeStyles: [Date.ISO8601FormatStyle] = [
        Date.ISO8601FormatStyle(includingFractionalSeconds: true),
        Date.ISO8601FormatStyle(),
        Date.ISO8601FormatStyle(timeZoneSeparator: .colon, includingFractionalSeconds: true),
        Date.ISO8601FormatStyle(timeZoneSeparator: .colon),
    ]

    private static func outside(_ name: String, _ value: Int, _ range: ClosedRange<Int>) -> String {
        "\(name) \(value) is outside \(range.lowerBound)…\(range.upperBound)"
    }

    /// Whole ratios as integers ("400"), others with up to two decimals ("50.25").
    static func formatted(_ value: Double) -> String {
        if value == value.rounded() { return String(Int(value)) }
        let text = String(format: "%.2f", value)
        return text.hasSuffix("0") ? String(text.dropLast()) : text
    }

    /// Takes each field as sent, remembering the first one present with the wrong JSON type.
    private struct LenientFields {
        let container: KeyedDecodingContainer<CodingKeys>
        var firstProblem: String?

        mutating func take<T: Decodable>(_ key: CodingKeys, _ type: T.Type, _ what: String) -> T? {
            guard container.contains(key), (try? container.decodeNil(forKey: key)) != true else { return nil }
            if let value = try? container.decode(T.self, forKey: key) { return value }
            if firstProblem == nil { firstProblem = "\(key.stringValue) must be \(what)" }
            return nil
        }
    }
}

/// Why a watch event was refused, in words a client can act on, with what it said its type and
/// id were (to name the event in the message).
public struct WatchEventProblem: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The type is not one of `EventType`.
        case unknownType
        /// A field is missing, of the wrong JSON type or outside its range.
        case invalid
    }

    public var kind: Kind
    public var why: String
    /// The event's `type` and `event_id` as sent (nil when absent or not strings).
    public var type: String?
    public var eventID: String?

    public init(_ kind: Kind, _ why: String, type: String? = nil, eventID: String? = nil) {
        self.kind = kind
        self.why = why
        self.type = type
        self.eventID = eventID
    }

    /// A client's string in a message: cut short, so a huge one cannot bloat it…
    public static func short(_ text: String) -> String {
        text.count > 80 ? String(text.prefix(80)) + "…" : text
    }

    /// …and quoted where it is the subject.
    public static func quoted(_ text: String) -> String {
        "\"" + short(text) + "\""
    }
}
