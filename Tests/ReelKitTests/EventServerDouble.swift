import Foundation
import ReelKit
import ReelModels

/// A server double for `POST /api/v1/events` (and feed pages, for `FeedSession`): it checks
/// batches the way docs/recommendations-api.md says (a post that does not exist refuses the
/// whole batch with a 400 naming the event's index), stores an `event_id` once, and can be
/// told to be offline, to lose its answer after storing, or to answer 429.
actor EventServerDouble: HTTPTransport {
    enum Trouble: Sendable {
        case offline
        /// Stores the batch, then the answer never arrives (the client sees `.offline`).
        case answerLost
        case rateLimited(retryAfter: Int?)
        case status(Int, code: String, message: String)
    }

    /// The next requests go wrong in this order; afterwards the double answers normally.
    var troubles: [Trouble] = []
    /// Posts that exist; nil: every post does.
    var existingPosts: Set<Int64>?
    /// Feed pages served in order to `GET /api/v1/feed`.
    var pages: [APIFeedPage] = []
    private(set) var stored: [WatchEvent] = []
    private(set) var eventRequests = 0
    private(set) var feedRequests: [URL] = []
    private var storedIDs = Set<String>()

    init(existingPosts: Set<Int64>? = nil, pages: [APIFeedPage] = []) {
        self.existingPosts = existingPosts
        self.pages = pages
    }

    func failNext(_ troubles: Trouble...) { self.troubles += troubles }

    func send(_ request: HTTPRequestValue) async throws(ReelAPIError) -> HTTPResponseValue {
        if request.url.path == "/api/v1/feed" {
            feedRequests.append(request.url)
            guard !pages.isEmpty else { return Self.json(200, APIFeedPage(items: [], nextCursor: nil)) }
            return Self.json(200, pages.removeFirst())
        }
        guard request.method == "POST", request.url.path == "/api/v1/events" else {
            return Self.error(404, "not_found", "no route \(request.method) \(request.url.path)")
        }
        eventRequests += 1
        let trouble = troubles.isEmpty ? nil : troubles.removeFirst()
        switch trouble {
        case .offline: throw .offline("connection refused")
        case .rateLimited(let seconds):
            var response = Self.error(429, "rate_limited", "too many events")
            if let seconds { response.headers["retry-after"] = String(seconds) }
            return response
        case .status(let status, let code, let message): return Self.error(status, code, message)
        case .answerLost, nil: break
        }
        guard let body = request.body, let batch = try? JSONDecoder().decode(APIEventBatch.self, from: body) else {
            return Self.error(400, "bad_request", "the body is not an event batch")
        }
        for (index, event) in batch.events.enumerated() where existingPosts.map({ !$0.contains(event.postID) }) ?? false {
            return Self.error(400, "invalid_event", "events[\(index)] (\(event.type.rawValue), event_id \(event.id.uuidString.lowercased())): post \(event.postID) does not exist")
        }
        var receipt = APIEventReceipt(accepted: 0, duplicates: 0)
        for event in batch.events {
            if storedIDs.insert(event.id.uuidString.lowercased()).inserted {
                stored.append(event)
                receipt.accepted += 1
            } else {
                receipt.duplicates += 1
            }
        }
        if case .answerLost = trouble { throw .offline("the connection dropped before the answer") }
        return Self.json(200, receipt)
    }

    static func json(_ status: Int, _ value: some Encodable) -> HTTPResponseValue {
        HTTPResponseValue(status: status, body: (try? JSONEncoder().encode(value)) ?? Data())
    }

    static func error(_ status: Int, _ code: String, _ message: String) -> HTTPResponseValue {
        json(status, APIErrorBody(code: code, message: message))
    }
}
