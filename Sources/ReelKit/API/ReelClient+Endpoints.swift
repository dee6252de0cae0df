import Foundation
import ReelModels

/// The feed's filters, as `GET /api/v1/feed` takes them: the same type the server parses.
public typealias FeedQuery = FeedFilter

extension ReelClient {
    // MARK: Session

    /// Signs in with a password; later requests carry the session. Throws `.unauthorized`
    /// with code `invalid_credentials` for a wrong name or password.
    @discardableResult
    public func login(username: String, password: String) async throws(ReelAPIError) -> APIUser {
        let body = try encode(APILoginRequest(username: username, password: password))
        let response = try await send("POST", "/api/v1/session", body: body, authenticated: false)
        guard let token = Self.sessionToken(in: response.headers["set-cookie"]) else {
            throw .decoding("the login answer set no \(Self.sessionCookie) cookie")
        }
        credentials = .session(token)
        return try decode(APIUser.self, from: response)
    }

    /// Ends the session on the server and forgets it here.
    public func logout() async throws(ReelAPIError) {
        defer { credentials = .none }
        guard case .session = credentials else { return }
        _ = try await send("DELETE", "/api/v1/session")
    }

    static func sessionToken(in setCookie: String?) -> String? {
        guard let setCookie else { return nil }
        for part in setCookie.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0] == sessionCookie, !pair[1].isEmpty { return pair[1] }
        }
        return nil
    }

    public func me() async throws(ReelAPIError) -> APIUser {
        try await json(APIUser.self, "GET", "/api/v1/me")
    }

    // MARK: Reads

    /// One page of the endless feed; pass the previous page's `nextCursor` to continue.
    public func feed(cursor: String? = nil, limit: Int? = nil, query: FeedQuery = FeedQuery()) async throws(ReelAPIError) -> APIFeedPage {
        let items = [URLQueryItem(name: "cursor", value: cursor), URLQueryItem(name: "limit", value: limit.map(String.init))] + query.queryItems
        return try await json(APIFeedPage.self, "GET", "/api/v1/feed", query: items)
    }

    public func video(id: Int64) async throws(ReelAPIError) -> APIVideo {
        try await json(APIVideo.self, "GET", "/api/v1/videos/\(id)")
    }

    public func favorites(cursor: String? = nil, limit: Int? = nil) async throws(ReelAPIError) -> APIFeedPage {
        try await json(APIFeedPage.self, "GET", "/api/v1/favorites", query: [
            URLQueryItem(name: "cursor", value: cursor), URLQueryItem(name: "limit", value: limit.map(String.init)),
        ])
    }

    public func tags() async throws(ReelAPIError) -> [APITagCount] {
        try await json(APIList<APITagCount>.self, "GET", "/api/v1/tags").items
    }

    public func jobs(state: String? = nil, limit: Int? = nil) async throws(ReelAPIError) -> [APIJob] {
        try await json(APIList<APIJob>.self, "GET", "/api/v1/jobs", query: [
            URLQueryItem(name: "state", value: state), URLQueryItem(name: "limit", value: limit.map(String.init)),
        ]).items
    }

    public func job(id: Int64) async throws(ReelAPIError) -> APIJob {
        try await json(APIJob.self, "GET", "/api/v1/jobs/\(id)")
    }

    /// Stops a queued or running job; it ends `failed` with "cancelled by <you>".
    public func cancelJob(id: Int64) async throws(ReelAPIError) -> APIJob {
        try await json(APIJob.self, "POST", "/api/v1/jobs/\(id)/cancel")
    }

    /// Runs a failed job again with fresh attempts.
    public func retryJob(id: Int64) async throws(ReelAPIError) -> APIJob {
        try await json(APIJob.self, "POST", "/api/v1/jobs/\(id)/retry")
    }

    // MARK: Per-user state

    public func setFavorite(_ favorited: Bool, videoID: Int64) async throws(ReelAPIError) -> APIViewerState {
        try await json(APIViewerState.self, favorited ? "POST" : "DELETE", "/api/v1/videos/\(videoID)/favorite")
    }

    /// 0 clears the rating; 1–5 stars.
    public func setRating(_ rating: Int, videoID: Int64) async throws(ReelAPIError) -> APIViewerState {
        try await json(APIViewerState.self, "PUT", "/api/v1/videos/\(videoID)/rating", body: try encode(APIRatingRequest(rating: rating)))
    }

    /// Where playback stopped; nil clears it.
    public func setPosition(_ seconds: Double?, videoID: Int64) async throws(ReelAPIError) {
        _ = try await send("PUT", "/api/v1/videos/\(videoID)/position", body: try encode(APIPositionRequest(seconds: seconds)))
    }

    public func markSeen(videoID: Int64) async throws(ReelAPIError) {
        _ = try await send("POST", "/api/v1/videos/\(videoID)/seen")
    }

    // MARK: Library edits

    public func addTags(_ tags: [String], videoID: Int64) async throws(ReelAPIError) -> APIVideo {
        try await json(APIVideo.self, "POST", "/api/v1/videos/\(videoID)/tags", body: try encode(APITagsRequest(tags: tags)))
    }

    public func removeTag(_ tag: String, videoID: Int64) async throws(ReelAPIError) -> APIVideo {
        try await json(APIVideo.self, "DELETE", "/api/v1/videos/\(videoID)/tags/\(Self.pathComponent(tag))")
    }

    public func addFlag(_ flag: String, videoID: Int64) async throws(ReelAPIError) -> APIVideo {
        try await json(APIVideo.self, "POST", "/api/v1/videos/\(videoID)/flags", body: try encode(APIFlagRequest(flag: flag)))
    }

    public func removeFlag(_ flag: String, videoID: Int64) async throws(ReelAPIError) -> APIVideo {
        try await json(APIVideo.self, "DELETE", "/api/v1/videos/\(videoID)/flags/\(Self.pathComponent(flag))")
    }

    // MARK: Media

    /// The bytes behind a media URL from an `APIMedia` (signed, so no header is needed; the
    /// credentials go along anyway because the key route may be tied to the user).
    public func download(_ url: URL) async throws(ReelAPIError) -> Data {
        var headers: [String: String] = [:]
        if url.host == baseURL.host, url.port == baseURL.port { headers = authorizationHeaders() }
        let response = try await transport.send(HTTPRequestValue(method: "GET", url: url, headers: headers))
        guard (200..<300).contains(response.status) else { throw Self.error(for: response) }
        return response.body
    }

    static func pathComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}
