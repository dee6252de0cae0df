import Foundation
import ReelKit
import ReelModels
import Testing

/// Answers every request with the next scripted response and records what was sent.
actor ScriptedTransport: HTTPTransport {
    var responses: [Result<HTTPResponseValue, ReelAPIError>]
    private(set) var requests: [HTTPRequestValue] = []

    init(_ responses: [Result<HTTPResponseValue, ReelAPIError>]) {
        self.responses = responses
    }

    func send(_ request: HTTPRequestValue) async throws(ReelAPIError) -> HTTPResponseValue {
        requests.append(request)
        guard !responses.isEmpty else { throw .offline("script exhausted") }
        return try responses.removeFirst().get()
    }
}

@Suite struct ReelClientTests {
    let base = URL(string: "http://127.0.0.1:9/")!

    func json(_ status: Int, _ text: String, headers: [String: String] = [:]) -> Result<HTTPResponseValue, ReelAPIError> {
        .success(HTTPResponseValue(status: status, headers: headers, body: Data(text.utf8)))
    }

    @Test func errorsAreTypedByWhatTheAppDoesAboutThem() async {
        let cases: [(Result<HTTPResponseValue, ReelAPIError>, ReelAPIError)] = [
            (json(401, #"{"error":{"code":"unauthorized","message":"sign in"}}"#), .unauthorized(code: "unauthorized", message: "sign in")),
            (json(403, #"{"error":{"code":"forbidden","message":"owners only"}}"#), .forbidden(message: "owners only")),
            (json(404, #"{"error":{"code":"not_found","message":"video 9 was not found"}}"#), .notFound(message: "video 9 was not found")),
            (json(410, #"{"error":{"code":"expired","message":"expired"}}"#), .expired(message: "expired")),
            (json(429, #"{"error":{"code":"rate_limited","message":"slow"}}"#, headers: ["Retry-After": "7"]), .rateLimited(retryAfter: 7)),
            (json(400, #"{"error":{"code":"bad_request","message":"rating must be an integer from 0 to 5"}}"#),
             .rejected(status: 400, code: "bad_request", message: "rating must be an integer from 0 to 5")),
            (json(502, "<html>bad gateway</html>"), .server(status: 502, message: "<html>bad gateway</html>")),
            (json(200, #"{"id":"not a number"}"#), .decoding("")),
            (.failure(.offline("connection refused")), .offline("connection refused")),
        ]
        for (response, expected) in cases {
            let client = ReelClient(baseURL: base, credentials: .apiKey("k"), transport: ScriptedTransport([response]))
            do {
                _ = try await client.video(id: 9)
                Issue.record("expected \(expected)")
            } catch {
                if case .decoding = expected {
                    guard case .decoding = error else { Issue.record("expected a decoding error, got \(error)"); continue }
                } else {
                    #expect(error == expected)
                }
            }
        }
        #expect(ReelAPIError.offline("x").isTransient && ReelAPIError.server(status: 500, message: "").isTransient)
        #expect(!ReelAPIError.notFound(message: "").isTransient && !ReelAPIError.unauthorized(code: "", message: "").isTransient)
    }

    @Test func requestsCarryCredentialsQueryAndSnakeCaseBodies() async throws {
        let transport = ScriptedTransport([
            json(200, #"{"items":[],"next_cursor":"abc"}"#),
            json(200, #"{"id":4,"is_favorited":false,"rating":3}"#),
            json(204, ""),
        ])
        let client = ReelClient(baseURL: base, credentials: .apiKey("secret-key"), transport: transport)
        let page = try await client.feed(cursor: "c1", limit: 5, query: FeedQuery(tags: ["cats", "dogs"], favoritesOnly: true))
        #expect(page.nextCursor == "abc")
        let state = try await client.setRating(3, videoID: 4)
        #expect(state == APIViewerState(id: 4, isFavorited: false, rating: 3))
        try await client.setPosition(12.5, videoID: 4)

        let sent = await transport.requests
        #expect(sent[0].method == "GET")
        let components = try #require(URLComponents(url: sent[0].url, resolvingAgainstBaseURL: false))
        #expect(components.path == "/api/v1/feed")
        #expect(Set(components.queryItems ?? []) == [
            URLQueryItem(name: "cursor", value: "c1"), URLQueryItem(name: "limit", value: "5"),
            URLQueryItem(name: "tags", value: "cats,dogs"), URLQueryItem(name: "favorites", value: "true"),
        ])
        #expect(sent.allSatisfy { $0.headers["api-key"] == "secret-key" })
        #expect(sent[1].method == "PUT" && sent[1].url.path == "/api/v1/videos/4/rating")
        #expect(String(decoding: sent[1].body ?? Data(), as: UTF8.self) == #"{"rating":3}"#)
        #expect(String(decoding: sent[2].body ?? Data(), as: UTF8.self) == #"{"seconds":12.5}"#)
    }

    @Test func loginKeepsTheSessionCookieAndSendsItBack() async throws {
        let transport = ScriptedTransport([
            json(200, #"{"id":1,"name":"owner","role":"owner"}"#,
                 headers: ["Set-Cookie": "reelhouse_session=tok123; Path=/; Max-Age=100; HttpOnly; SameSite=Lax"]),
            json(200, #"{"id":1,"name":"owner","role":"owner"}"#),
            json(204, ""),
        ])
        let client = ReelClient(baseURL: base, transport: transport)
        let user = try await client.login(username: "owner", password: "pw")
        #expect(user.name == "owner")
        #expect(await client.credentials == .session("tok123"))
        _ = try await client.me()
        try await client.logout()
        #expect(await client.credentials == ReelCredentials.none)
        let sent = await transport.requests
        #expect(sent[0].headers["Cookie"] == nil && sent[0].headers["api-key"] == nil)
        #expect(String(decoding: sent[0].body ?? Data(), as: UTF8.self).contains(#""username":"owner""#))
        #expect(sent[1].headers["Cookie"] == "reelhouse_session=tok123")
        #expect(sent[2].method == "DELETE" && sent[2].url.path == "/api/v1/session")
        // The server refuses cookie writes that do not name its origin (scheme, host, port; no path).
        #expect(sent[2].headers["Origin"] == "http://127.0.0.1:9")
    }

    @Test func aBaseURLWithAPathPrefixIsKept() async throws {
        let transport = ScriptedTransport([json(200, #"{"id":1,"name":"a","role":"member"}"#)])
        let client = ReelClient(baseURL: URL(string: "https://example.org/reels/")!, transport: transport)
        _ = try await client.me()
        #expect(await transport.requests.first?.url.absoluteString == "https://example.org/reels/api/v1/me")
        #expect(client.url(for: "/media/T/1/master.m3u8")?.absoluteString == "https://example.org/media/T/1/master.m3u8")
    }

    @Test func generationsDecodeTheServersSnakeCase() async throws {
        let body = #"{"id":3,"state":"ready","progress":1,"prompt":"a calm sea","style":"aurora","seconds":4,"width":720,"height":1280,"provider":"local","provider_name":"Local text card","preview_url":"/api/v1/generations/3/preview.mp4","created_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:01:00Z"}"#
        let transport = ScriptedTransport([json(202, body)])
        let client = ReelClient(baseURL: base, credentials: .apiKey("k"), transport: transport)
        let generation = try await client.createGeneration(APIGenerationRequest(prompt: "a calm sea", seconds: 4))
        #expect(generation.providerName == "Local text card" && generation.previewUrl == "/api/v1/generations/3/preview.mp4")
        let sent = try #require(await transport.requests.first)
        #expect(sent.method == "POST" && sent.url.path == "/api/v1/generations")
        let fields = try JSONSerialization.jsonObject(with: sent.body ?? Data()) as? [String: Any]
        #expect(fields?["prompt"] as? String == "a calm sea" && fields?["seconds"] as? Int == 4)
    }
}
