import Foundation
import ReelKit
import ReelModels
import Testing

@Suite struct StoriesClientTests {
    let base = URL(string: "http://127.0.0.1:9/")!

    func json(_ text: String, status: Int = 200) -> Result<HTTPResponseValue, ReelAPIError> {
        .success(HTTPResponseValue(status: status, body: Data(text.utf8)))
    }

    @Test func everyStoriesRouteIsCalledAsTheContractSays() async throws {
        let item = #"{"id":7,"kind":"photo","seen":false,"liked":false,"posted_at":"2026-11-25T08:00:00Z","expires_at":null,"duration":5,"width":1080,"height":1920,"media":{"encrypted":false,"images":[]},"part":0,"parts":1,"kept":true}"#
        let transport = ScriptedTransport([
            json(#"{"tray":[{"user":"ana","is_me":false,"items_count":2,"first_unseen":1,"all_seen":false,"latest_at":"2026-11-25T08:00:00Z","avatar":null}],"next_cursor":"n1"}"#),
            json(#"{"user":"Ana Lu","is_me":false,"first_unseen":0,"items":[\#(item)]}"#),
            json(#"{"accepted":2,"ignored":1}"#),
            json(#"{"id":7,"liked":true}"#),
            json(#"{"id":7,"liked":false}"#),
            json(#"{"viewers":[{"user":"ben","seen_at":"2026-11-25T08:01:00Z","liked":true}],"next_cursor":null}"#),
            json(item),
            json("", status: 204),
            json(#"{"items":[\#(item)],"next_cursor":null}"#),
        ])
        let client = ReelClient(baseURL: base, credentials: .apiKey("k"), transport: transport)
        let tray = try await client.storyTray(cursor: "c0", limit: 5)
        #expect(tray.tray.first?.firstUnseen == 1 && tray.nextCursor == "n1")
        #expect(try await client.stories(of: "Ana Lu").items.first?.kind == .photo)
        #expect(try await client.markStoriesSeen([7, 8, 9]) == APIStorySeenResponse(accepted: 2, ignored: 1))
        #expect(try await client.setStoryLike(true, itemID: 7).liked)
        #expect(try await !client.setStoryLike(false, itemID: 7).liked)
        #expect(try await client.storyViewers(itemID: 7, limit: 10).viewers == [APIStoryViewer(user: "ben", seenAt: "2026-11-25T08:01:00Z", liked: true)])
        #expect(try await client.keepStory(itemID: 7).kept == true)
        try await client.deleteStory(itemID: 7)
        #expect(try await client.storyArchive(cursor: "a1").items.count == 1)

        let sent = await transport.requests
        #expect(sent.map(\.method) == ["GET", "GET", "POST", "POST", "DELETE", "GET", "POST", "DELETE", "GET"])
        #expect(sent.map { $0.url.path } == [
            "/api/v1/stories", "/api/v1/stories/Ana Lu", "/api/v1/stories/seen", "/api/v1/stories/items/7/like", "/api/v1/stories/items/7/like",
            "/api/v1/stories/items/7/viewers", "/api/v1/stories/items/7/keep", "/api/v1/stories/items/7", "/api/v1/stories/archive",
        ])
        #expect(sent[1].url.absoluteString.hasSuffix("/api/v1/stories/Ana%20Lu"), "a name is one escaped path segment")
        #expect(Set(URLComponents(url: sent[0].url, resolvingAgainstBaseURL: false)?.queryItems ?? []) == [
            URLQueryItem(name: "cursor", value: "c0"), URLQueryItem(name: "limit", value: "5"),
        ])
        #expect(String(decoding: sent[2].body ?? Data(), as: UTF8.self) == #"{"items":[7,8,9]}"#)
        #expect(sent.allSatisfy { $0.headers["api-key"] == "k" })
    }
}
