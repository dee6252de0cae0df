import Foundation
import Hummingbird
import NIOCore
import ReelModels

/// `POST /api/v1/events`' body, read event by event: each element is checked into a `WatchEvent`
/// (`WatchEvent.checked`) or the `WatchEventProblem` naming what is wrong with it, so the first bad event can be named
/// by its index rather than failing the whole body with a generic decoding error. The content
/// type is not looked at: `navigator.sendBeacon` sends a Blob as `application/json` or a string
/// as `text/plain`, with the same JSON.
struct EventBatchBody: Decodable {
    let events: [Result<WatchEvent, WatchEventProblem>]

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
        events = try container.decode([CheckedEvent].self, forKey: .events).map(\.result)
    }

    /// One element, checked.
    private struct CheckedEvent: Decodable {
        let result: Result<WatchEvent, WatchEventProblem>

        init(from decoder: any Decoder) {
            result = Result { () throws(WatchEventProblem) in try WatchEvent.checked(from: decoder) }
        }
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
