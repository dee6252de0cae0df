import Foundation
import Hummingbird
import NIOCore
import ReelModels

/// `POST /api/v1/events`' body, read leniently: each event's fields are taken one by one, so a
/// field of the wrong JSON type (or an event that is not an object) is refused as
/// `invalid_event` naming that event, rather than failing the whole body with a generic
/// decoding error. The content type is not looked at: `navigator.sendBeacon` sends a Blob as
/// `application/json` or a string as `text/plain`, with the same JSON.
struct EventBatchBody: Decodable {
    let events: [IncomingEvent]

    /// A batch of 500 events is about 100 KB, above the default JSON body limit; up to this
    /// much is read so that a batch that is merely too long is told so (`too_many_events`).
    static let maxBytes = 1024 * 1024

    enum CodingKeys: String, CodingKey {
        case events
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.contains(.events), try !container.decodeNil(forKey: .events) else {
            throw APIError.badRequest("the body needs an events array")
        }
        events = try container.decode([IncomingEvent].self, forKey: .events)
    }

    static func read(_ request: Request, context: AppRequestContext) async throws -> EventBatchBody {
        var request = request
        let limit = max(context.maxBodyBytes, maxBytes)
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch {
            throw APIError.payloadTooLarge(limit)
        }
        guard buffer.readableBytes > 0 else { throw APIError.badRequest("a JSON body is required") }
        // The event fields spell their snake_case names out: no key conversion.
        return try JSONDecoder().decode(EventBatchBody.self, from: Data(buffer.readableBytesView))
    }
}

/// One element of `events` as sent: every field optional; `malformed` names the first field
/// present with the wrong JSON type (null counts as absent).
struct IncomingEvent: Decodable {
    var eventID: String?
    var type: String?
    var postID: Int64?
    var at: String?
    var watchedMs: Int?
    var durationMs: Int?
    var loops: Int?
    var value: Int?
    var malformed: String?

    enum CodingKeys: String, CodingKey {
        case eventID = "event_id"
        case type
        case postID = "post_id"
        case at
        case watchedMs = "watched_ms"
        case durationMs = "duration_ms"
        case loops
        case value
    }

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
            malformed = "an event is a JSON object"
            return
        }
        var problems: [String] = []
        func field<T: Decodable>(_ key: CodingKeys, _ type: T.Type, _ what: String) -> T? {
            guard container.contains(key), (try? container.decodeNil(forKey: key)) != true else { return nil }
            if let value = try? container.decode(T.self, forKey: key) { return value }
            problems.append("\(key.stringValue) must be \(what)")
            return nil
        }
        eventID = field(.eventID, String.self, "a string")
        type = field(.type, String.self, "a string")
        postID = field(.postID, Int64.self, "an integer")
        at = field(.at, String.self, "an ISO 8601 string")
        watchedMs = field(.watchedMs, Int.self, "an integer")
        durationMs = field(.durationMs, Int.self, "an integer")
        loops = field(.loops, Int.self, "an integer")
        value = field(.value, Int.self, "an integer")
        malformed = problems.first
    }
}
