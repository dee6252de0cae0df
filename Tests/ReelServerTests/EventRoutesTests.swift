import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReelModels
import ReelStore
@testable import ReelStoreSQLite
import Testing
@testable import ReelServer

/// A batch body as a client writes it.
func eventsJSON(_ events: [WatchEvent]) -> String {
    String(decoding: try! JSONEncoder().encode(APIEventBatch(events: events)), as: UTF8.self)
}

/// An event as any client might write it, its fields whatever strings it likes: what the
/// server must refuse, field by field.
struct RawEvent: Encodable {
    var eventID: String
    var type: String
    var postID: Int64
    var at: String
    var watchedMs: Int?
    var durationMs: Int?

    enum CodingKeys: String, CodingKey {
        case eventID = "event_id", type, postID = "post_id", at, watchedMs = "watched_ms", durationMs = "duration_ms"
    }

    init(eventID: String, type: String, postID: Int64, at: String, watchedMs: Int? = nil, durationMs: Int? = nil) {
        self.eventID = eventID
        self.type = type
        self.postID = postID
        self.at = at
        self.watchedMs = watchedMs
        self.durationMs = durationMs
    }

    init(_ event: WatchEvent) {
        self.init(
            eventID: event.id.uuidString.lowercased(), type: event.type.rawValue, postID: event.postID, at: WatchEvent.timestamp(event.at),
            watchedMs: event.watchedMs, durationMs: event.durationMs
        )
    }
}

func eventsJSON(_ events: [RawEvent]) -> String {
    struct Batch: Encodable { var events: [RawEvent] }
    return String(decoding: try! JSONEncoder().encode(Batch(events: events)), as: UTF8.self)
}

extension TestClientProtocol {
    /// POSTs a raw body with the given credentials and content type (nil: none), as sendBeacon would.
    func postEvents(_ body: String, credentials: HTTPFields, contentType: String?) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: Data) {
        var fields = credentials
        if let contentType { fields[.contentType] = contentType }
        return try await execute(uri: "/api/v1/events", method: .post, headers: fields, body: ByteBuffer(string: body)) { response in
            (response.status, response.headers, Data(response.body.readableBytesView))
        }
    }
}

/// The `{"error":{"code","message"}}` of an answer.
func errorOf(_ body: Data) throws -> (code: String, message: String) {
    let error = try decode(APIErrorBody.self, body)
    return (error.error.code, error.error.message)
}

@Suite("Watch events over HTTP: ingest, refusals, rate limit")
struct EventRoutesTests {
    @Test("a batch is stored once whatever its content type, and a resent one counts as duplicates")
    func acceptsBatchesAndBeacons() async throws {
        let server = try await TestServer()
        let post = try await server.publishVideo(name: "clip", tags: ["cats"])
        let view = WatchEvent(postID: post.id, type: .view, at: Date(), watchedMs: 9_400, durationMs: 12_000, loops: 0)
        let like = WatchEvent(postID: post.id, type: .like, at: Date())
        try await server.application().test(.live) { client in
            let first = try await client.send(.post, "/api/v1/events", key: server.memberKey, json: eventsJSON([view, like, view]))
            #expect(first.status == .ok)
            try server.expectMatchesSchema(first.body, "EventReceipt")
            #expect(try decode(APIEventReceipt.self, first.body) == APIEventReceipt(accepted: 2, duplicates: 1))
            // The page's keepalive fetch: JSON, authenticated by the session cookie from its own
            // origin. A body a form or a beacon could send (text/plain, or no type) is refused
            // with 415, and nothing of it is stored.
            let login = try await client.send(.post, "/api/v1/session", json: #"{"username":"member","password":"\#(TestServer.password)"}"#)
            let cookie = try #require(login.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            let share = WatchEvent(postID: post.id, type: .share, at: Date())
            let page: HTTPFields = [.cookie: cookie, .secFetchSite: "same-origin"]
            let answer = try await client.postEvents(eventsJSON([view, like, share]), credentials: page, contentType: "application/json")
            #expect(answer.status == .ok)
            #expect(try decode(APIEventReceipt.self, answer.body) == APIEventReceipt(accepted: 1, duplicates: 2))
            for type in ["text/plain;charset=UTF-8", nil] {
                let impression = [WatchEvent(postID: post.id, type: .impression, at: Date())]
                let refused = try await client.postEvents(eventsJSON(impression), credentials: page, contentType: type)
                #expect(refused.status == .unsupportedMediaType, "\(type ?? "no content type")")
                #expect(try errorOf(refused.body).code == "unsupported_media_type")
            }
            // An empty batch is fine and does nothing.
            let empty = try await client.send(.post, "/api/v1/events", key: server.memberKey, json: #"{"events":[]}"#)
            #expect(try decode(APIEventReceipt.self, empty.body) == APIEventReceipt(accepted: 0, duplicates: 0))
            let history = try decode(APIHistoryPage.self, try await client.send(.get, "/api/v1/me/history", key: server.memberKey).body)
            #expect(history.items.map(\.views) == [1] && history.items.first?.watchedMs == 9_400)
        }
    }

    @Test("each refusal answers its code and names the event, and stores nothing of the batch")
    func refusals() async throws {
        let server = try await TestServer()
        let post = try await server.publishVideo(name: "clip")
        let secret = try await server.store.createLibrary(name: "Secret", now: Date())
        let elsewhere = try await server.publishVideo(name: "elsewhere", libraryID: secret.id)
        let now = Date()
        let good = RawEvent(WatchEvent(postID: post.id, type: .like, at: now))
        let id = "3b1f6c1e-9a4e-4b7e-9a51-0d2c6f1e2a10"
        @Sendable func event(_ type: String = "view", postID: Int64? = nil, at: String? = nil, watched: Int? = 1_000, duration: Int? = 5_000, eventID: String = id) -> RawEvent {
            RawEvent(eventID: eventID, type: type, postID: postID ?? post.id, at: at ?? WatchEvent.timestamp(now), watchedMs: watched, durationMs: duration)
        }
        let future = WatchEvent.timestamp(now.addingTimeInterval(6 * 60))
        let ancient = WatchEvent.timestamp(now.addingTimeInterval(-181 * 86_400))
        let cases: [(String, String, String)] = [
            (eventsJSON([good, event("wave")]), "unknown_event_type", #"events[1]: unknown type "wave""#),
            (eventsJSON([event(eventID: "nope")]), "invalid_event", #"events[0] (view, event_id nope): event_id "nope" is not a UUID"#),
            (eventsJSON([event(at: "yesterday")]), "invalid_event", "events[0] (view, event_id \(id)): at \"yesterday\" is not an ISO 8601 time"),
            (eventsJSON([event(at: future)]), "invalid_event", "events[0] (view, event_id \(id)): at is more than 5 minutes in the future"),
            (eventsJSON([event(at: ancient)]), "invalid_event", "events[0] (view, event_id \(id)): at is older than the 180-day retention"),
            (eventsJSON([event(duration: nil)]), "invalid_event", "events[0] (view, event_id \(id)): duration_ms is required"),
            (eventsJSON([event(watched: 4_000_000, duration: 10_000)]), "invalid_event", "events[0] (view, event_id \(id)): watch ratio 400 is above 50"),
            (eventsJSON([event("skip", watched: 2_500)]), "invalid_event", "events[0] (skip, event_id \(id)): watched_ms 2500 is outside 0…2000"),
            (eventsJSON([event("rating", watched: nil, duration: nil)]), "invalid_event", "events[0] (rating, event_id \(id)): value is required"),
            (eventsJSON([good, event(postID: 999)]), "invalid_event", "events[1] (view, event_id \(id)): post 999 does not exist"),
            // A post in a library not granted to the person is indistinguishable from none.
            (eventsJSON([good, event(postID: elsewhere.id)]), "invalid_event", "events[1] (view, event_id \(id)): post \(elsewhere.id) does not exist"),
            (#"{"events":[{"event_id":"\#(id)","type":"like","post_id":"one","at":"\#(WatchEvent.timestamp(now))"}]}"#,
             "invalid_event", "events[0] (like, event_id \(id)): post_id must be an integer"),
            (eventsJSON(Array(repeating: good, count: 501)), "too_many_events", "a batch holds at most 500 events; this one has 501"),
            (#"{"items":[]}"#, "bad_request", "the body needs an events array"),
        ]
        try await server.application().test(.live) { client in
            for (body, code, message) in cases {
                let answer = try await client.send(.post, "/api/v1/events", key: server.memberKey, json: body)
                #expect(answer.status == .badRequest, "\(message)")
                let error = try errorOf(answer.body)
                #expect(error.code == code && error.message == message)
            }
            let history = try decode(APIHistoryPage.self, try await client.send(.get, "/api/v1/me/history", key: server.memberKey).body)
            #expect(history.items.isEmpty, "a refused batch left \(history.items)")
            // The owner sees every library: the same event is accepted.
            let owner = try await client.send(.post, "/api/v1/events", key: server.ownerKey, json: eventsJSON([event(postID: elsewhere.id)]))
            #expect(owner.status == .ok)
        }
        #expect(try server.store.rawStrings("SELECT COUNT(*) FROM watch_events") == ["1"])
    }

    @Test("over 1,200 events a minute a person gets 429 with Retry-After, and that batch is not stored")
    func rateLimit() async throws {
        let server = try await TestServer()
        let post = try await server.publishVideo(name: "clip")
        @Sendable func batch(_ count: Int) -> String {
            eventsJSON((0..<count).map { _ in WatchEvent(postID: post.id, type: .impression, at: Date()) })
        }
        try await server.application().test(.live) { client in
            for _ in 0..<2 {
                #expect(try await client.send(.post, "/api/v1/events", key: server.memberKey, json: batch(500)).status == .ok)
            }
            let over = try await client.send(.post, "/api/v1/events", key: server.memberKey, json: batch(201))
            #expect(over.status == .tooManyRequests)
            #expect(try errorOf(over.body).code == "rate_limited")
            #expect(Int(over.headers[.retryAfter] ?? "") ?? 0 >= 1)
            // What still fits goes through; another person has an allowance of their own.
            #expect(try await client.send(.post, "/api/v1/events", key: server.memberKey, json: batch(200)).status == .ok)
            #expect(try await client.send(.post, "/api/v1/events", key: server.ownerKey, json: batch(500)).status == .ok)
        }
        #expect(try server.store.rawStrings("SELECT impressions FROM user_post_signals WHERE user_id = ?", [server.member.id]) == ["1200"])
    }
}
