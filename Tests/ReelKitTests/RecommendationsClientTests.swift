import Foundation
import ReelKit
import ReelModels
import Testing

/// The routes of docs/recommendations-api.md as ReelKit sends them and decodes their answers.
@Suite struct RecommendationsClientTests {
    func json(_ status: Int, _ text: String) -> Result<HTTPResponseValue, ReelAPIError> {
        .success(HTTPResponseValue(status: status, body: Data(text.utf8)))
    }

    @Test func everyRouteHasItsMethodPathQueryAndBody() async throws {
        let transport = ScriptedTransport([
            json(200, #"{"accepted":1,"duplicates":0}"#),
            json(200, #"{"items":[],"next_cursor":"n","mode":"latest"}"#),
            json(200, #"{"items":[{"post_id":4,"watched_at":"2026-11-25T12:00:00.123Z","views":2,"long_views":1,"skips":0,"watched_ms":9400}],"next_cursor":null}"#),
            json(204, ""), json(204, ""),
            json(200, #"{"items":[{"post_id":9,"at":"2026-11-25T12:00:00Z"}],"next_cursor":null}"#),
            json(204, ""),
            json(200, #"{"uploaders":[{"uploader":"Ana María/Films","at":"2026-11-25T12:00:00Z"}]}"#),
            json(204, ""),
        ])
        let client = ReelClient(baseURL: URL(string: "http://127.0.0.1:9/")!, credentials: .apiKey("k"), transport: transport)
        let event = WatchEvent(
            id: UUID(uuidString: "3b1f6a0e-8f43-4c4b-9a53-6b1d1c1e2f00")!, postID: 4, type: .view,
            at: try #require(WatchEvent.parseTime("2026-11-25T12:00:00.123Z")), watchedMs: 9400, durationMs: 12000, loops: 0
        )
        #expect(try await client.sendEvents([event]) == APIEventReceipt(accepted: 1, duplicates: 0))
        let page = try await client.feedPage(mode: .latest, cursor: "c", limit: 5, query: FeedQuery(tags: ["cats"]))
        #expect(page.mode == .latest && page.nextCursor == "n")
        let history = try await client.history(limit: 30)
        #expect(history.items == [APIHistoryEntry(postID: 4, watchedAt: "2026-11-25T12:00:00.123Z", views: 2, longViews: 1, skips: 0, watchedMs: 9400, video: nil)])
        try await client.removeFromHistory(postID: 4)
        try await client.clearHistory()
        #expect(try await client.notInterested().items.map(\.postID) == [9])
        try await client.undoNotInterested(postID: 9)
        let hidden = try await client.hiddenUploaders()
        #expect(hidden.map(\.uploader) == ["Ana María/Films"])
        try await client.unhideUploader(hidden[0].uploader)

        let sent = await transport.requests
        let paths = sent.map { "\($0.method) \(URLComponents(url: $0.url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? "")" }
        #expect(paths == [
            "POST /api/v1/events", "GET /api/v1/feed", "GET /api/v1/me/history", "DELETE /api/v1/me/history/4",
            "DELETE /api/v1/me/history", "GET /api/v1/me/not-interested", "DELETE /api/v1/me/not-interested/9",
            "GET /api/v1/me/hidden-uploaders", "DELETE /api/v1/me/hidden-uploaders/Ana%20Mar%C3%ADa%2FFilms",
        ])
        let body = try #require(JSONSerialization.jsonObject(with: sent[0].body ?? Data()) as? [String: [[String: Any]]])
        let wire = try #require(body["events"]?.first)
        #expect(Set(wire.keys) == ["event_id", "type", "post_id", "at", "watched_ms", "duration_ms", "loops"])
        #expect(wire["event_id"] as? String == "3b1f6a0e-8f43-4c4b-9a53-6b1d1c1e2f00" && wire["watched_ms"] as? Int == 9400)
        #expect(wire["at"] as? String == "2026-11-25T12:00:00.123Z")
        let query = URLComponents(url: sent[1].url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(Set(query) == [
            URLQueryItem(name: "mode", value: "latest"), URLQueryItem(name: "cursor", value: "c"),
            URLQueryItem(name: "limit", value: "5"), URLQueryItem(name: "tags", value: "cats"),
        ])
        #expect(URLComponents(url: sent[2].url, resolvingAgainstBaseURL: false)?.queryItems == [URLQueryItem(name: "limit", value: "30")])
    }

    @Test func eventsAreStampedInUTCWithMilliseconds() throws {
        let event = WatchEvent(postID: 1, type: .like, at: Date(timeIntervalSince1970: 1_795_000_000.25))
        let wire = try #require(JSONSerialization.jsonObject(with: try JSONEncoder().encode(event)) as? [String: Any])
        #expect(wire["at"] as? String == "2026-11-18T11:06:40.250Z")
        let id = try #require(wire["event_id"] as? String)
        #expect(UUID(uuidString: id) == event.id && id == id.lowercased())
    }
}
