import Foundation
import ReelModels
import ReelRank
import ReelStore

/// The rules of `POST /api/v1/events` that need no database (docs/recommendations-api.md,
/// "Events"): the batch size, known types, ids, times and each type's fields. The first event
/// that breaks a rule refuses the whole batch, with a message naming it.
struct EventValidation {
    let now: Date
    /// `eventRetentionDays` in seconds: an older event would be expired at once.
    let retention: TimeInterval

    static let maxMilliseconds = 21_600_000
    static let maxLoops = 1_000
    /// A view that claims more than this many times the post's length is not a real watch.
    static let maxWatchRatio = 50
    /// Clocks drift; a client may be a little ahead of the server.
    static let allowedFuture: TimeInterval = 5 * 60

    func validate(_ batch: EventBatchBody) throws(APIError) -> [WatchEvent] {
        guard batch.events.count <= APIEventBatch.maxCount else {
            throw APIError.tooManyEvents(count: batch.events.count, limit: APIEventBatch.maxCount)
        }
        var accepted: [WatchEvent] = []
        accepted.reserveCapacity(batch.events.count)
        for (index, event) in batch.events.enumerated() {
            accepted.append(try validate(event, index: index))
        }
        return accepted
    }

    private func validate(_ event: IncomingEvent, index: Int) throws(APIError) -> WatchEvent {
        func refuse(_ why: String) -> APIError { .invalidEvent(Self.message(index: index, event: event, why)) }
        if let problem = event.malformed { throw refuse(problem) }
        guard let typeName = event.type else { throw refuse("type is required") }
        guard let type = EventType(rawValue: typeName) else {
            throw APIError.unknownEventType("events[\(index)]: unknown type \(Self.quoted(typeName))")
        }
        guard let idText = event.eventID else { throw refuse("event_id is required") }
        guard let id = UUID(uuidString: idText) else { throw refuse("event_id \(Self.quoted(idText)) is not a UUID") }
        guard let atText = event.at else { throw refuse("at is required") }
        guard let at = Self.parseTime(atText) else { throw refuse("at \(Self.quoted(atText)) is not an ISO 8601 time") }
        if at.timeIntervalSince(now) > Self.allowedFuture { throw refuse("at is more than 5 minutes in the future") }
        if now.timeIntervalSince(at) > retention {
            throw refuse("at is older than the \(Int((retention / 86_400).rounded()))-day retention")
        }
        guard let postID = event.postID else { throw refuse("post_id is required") }
        guard postID > 0 else { throw refuse("post \(postID) does not exist") }
        // A field out of its range is refused whatever the type (one that ignores it too): the
        // documented schema promises it.
        let ranges: [(String, Int?, ClosedRange<Int>)] = [
            ("watched_ms", event.watchedMs, 0...Self.maxMilliseconds), ("duration_ms", event.durationMs, 1...Self.maxMilliseconds),
            ("loops", event.loops, 0...Self.maxLoops), ("value", event.value, 0...5),
        ]
        for (name, value, range) in ranges {
            if case .refused(let why) = Self.required(value ?? range.lowerBound, name, in: range) { throw refuse(why) }
        }
        var stored = WatchEvent(id: id, postID: postID, type: type, at: at)
        switch type {
        case .view:
            let watched = try Self.required(event.watchedMs, "watched_ms", in: 0...Self.maxMilliseconds).get(refuse)
            let duration = try Self.required(event.durationMs, "duration_ms", in: 1...Self.maxMilliseconds).get(refuse)
            let loops = try Self.required(event.loops ?? 0, "loops", in: 0...Self.maxLoops).get(refuse)
            let ratio = Double(watched) / Double(duration)
            if ratio > Double(Self.maxWatchRatio) {
                throw refuse("watch ratio \(Self.formatted(ratio)) is above \(Self.maxWatchRatio)")
            }
            stored.watchedMs = watched
            stored.durationMs = duration
            stored.loops = loops
        case .skip:
            stored.watchedMs = try Self.required(event.watchedMs, "watched_ms", in: 0...WatchLabel.skipMilliseconds).get(refuse)
        case .rating:
            stored.value = try Self.required(event.value, "value", in: 0...5).get(refuse)
        case .impression, .like, .unlike, .favorite, .unfavorite, .download, .share, .notInterested, .hideUploader:
            break
        }
        return stored
    }

    /// `events[INDEX] (TYPE, event_id ID): WHY`.
    static func message(index: Int, event: IncomingEvent, _ why: String) -> String {
        "events[\(index)] (\(event.type ?? "no type"), event_id \(event.eventID ?? "none")): \(why)"
    }

    /// A field's value, or why it is refused.
    private static func required(_ value: Int?, _ name: String, in range: ClosedRange<Int>) -> FieldCheck {
        guard let value else { return .refused("\(name) is required") }
        guard range.contains(value) else { return .refused("\(name) \(value) is outside \(range.lowerBound)…\(range.upperBound)") }
        return .valid(value)
    }

    private enum FieldCheck {
        case valid(Int)
        case refused(String)

        func get(_ refuse: (String) -> APIError) throws(APIError) -> Int {
            switch self {
            case .valid(let value): return value
            case .refused(let why): throw refuse(why)
            }
        }
    }

    /// ISO 8601 with or without fractional seconds, `Z` or a numeric offset.
    static func parseTime(_ text: String) -> Date? {
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

    /// Whole ratios as integers ("400"), others with up to two decimals ("50.25").
    static func formatted(_ value: Double) -> String {
        if value == value.rounded() { return String(Int(value)) }
        let text = String(format: "%.2f", value)
        return text.hasSuffix("0") ? String(text.dropLast()) : text
    }

    /// A client's string in a message: quoted, and cut short so a huge one cannot bloat it.
    static func quoted(_ text: String) -> String {
        let short = text.count > 80 ? String(text.prefix(80)) + "…" : text
        return "\"" + short + "\""
    }
}

