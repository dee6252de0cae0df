import Foundation
import ReelKit
import ReelModels

/// A stories server double for unit tests: answers the stories routes from what a test put in
/// it (answers in any order, unlike `ScriptedTransport`, because prefetches run beside the
/// session), keeps seen and liked state per item, serves media bytes, and records everything.
/// The live behaviour is checked by `StoriesLiveTests` against the real server.
actor StoryServerDouble: HTTPTransport {
    var trayPages: [String: APIStoryTray] = [:]
    var people: [String: APIStoryUserPage] = [:]
    /// What a person's page answers from its second request on (fresh media URLs).
    var refetched: [String: APIStoryUserPage] = [:]
    /// Media URLs signed with this token answer 410, as expired signatures do.
    var expiredToken: String?
    /// Every request fails as a dropped connection would.
    var offline = false
    /// Like requests answer this status (with the server's error body) instead of succeeding.
    var likeStatus: Int?
    private(set) var requests: [HTTPRequestValue] = []
    private(set) var seenBatches: [[Int64]] = []
    private(set) var liked: Set<Int64> = []

    static let firstPage = "first"

    func setTray(_ pages: [String: APIStoryTray]) { trayPages = pages }
    func setPerson(_ page: APIStoryUserPage) { people[page.user] = page }
    func removePerson(_ user: String) { people[user] = nil }
    func setRefetched(_ page: APIStoryUserPage) { refetched[page.user] = page }
    func expire(token: String) { expiredToken = token }
    func setOffline(_ value: Bool) { offline = value }
    func setLikeStatus(_ status: Int?) { likeStatus = status }

    var mediaPaths: [String] { requests.map(\.url.path).filter { $0.hasPrefix("/media/") || $0.hasPrefix("/img/") } }
    var pagePaths: [String] { requests.map(\.url.path).filter { $0.hasPrefix("/api/v1/stories/") && !$0.hasPrefix("/api/v1/stories/items") && $0 != "/api/v1/stories/seen" } }

    func send(_ request: HTTPRequestValue) async throws(ReelAPIError) -> HTTPResponseValue {
        requests.append(request)
        if offline { throw .offline("the network is down") }
        let path = request.url.path
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        if path.hasPrefix("/media/") || path.hasPrefix("/img/") {
            if let expiredToken, path.contains("/\(expiredToken)/") { return Self.error(410, "expired", "this link has expired") }
            return HTTPResponseValue(status: 200, body: Data(path.utf8))
        }
        switch (request.method, path) {
        case ("GET", "/api/v1/stories"):
            let cursor = query.first { $0.name == "cursor" }?.value ?? Self.firstPage
            guard let page = trayPages[cursor] else { return Self.error(400, "invalid_cursor", "that cursor is not valid") }
            return Self.json(page)
        case ("POST", "/api/v1/stories/seen"):
            let batch = (try? JSONDecoder().decode(APIStorySeenRequest.self, from: request.body ?? Data()))?.items ?? []
            seenBatches.append(batch)
            let known = Set(people.values.flatMap(\.items).map(\.id))
            let accepted = batch.filter { known.contains($0) }.count
            return Self.json(APIStorySeenResponse(accepted: accepted, ignored: batch.count - accepted))
        default:
            break
        }
        let parts = path.split(separator: "/").map(String.init)   // api v1 stories …
        if parts.count == 6, parts[3] == "items", parts[5] == "like", let id = Int64(parts[4]) {
            if let likeStatus { return Self.error(likeStatus, "not_found", "story item \(id) was not found") }
            if request.method == "POST" { liked.insert(id) } else { liked.remove(id) }
            return Self.json(APIStoryLike(id: id, liked: liked.contains(id)))
        }
        if parts.count == 4, request.method == "GET", let page = people[parts[3]] {
            let earlier = requests.dropLast().filter { $0.method == "GET" && $0.url.path == path }.count
            return Self.json(earlier > 0 ? refetched[parts[3]] ?? page : page)
        }
        return Self.error(404, "not_found", "\(path) was not found")
    }

    static func json(_ value: some Encodable) -> HTTPResponseValue {
        HTTPResponseValue(status: 200, body: (try? JSONEncoder().encode(value)) ?? Data())
    }

    static func error(_ status: Int, _ code: String, _ message: String) -> HTTPResponseValue {
        HTTPResponseValue(status: status, body: Data(#"{"error":{"code":"\#(code)","message":"\#(message)"}}"#.utf8))
    }
}

enum StoryFixtures {
    static func entry(_ user: String, items: Int = 2, allSeen: Bool = false) -> APIStoryTrayEntry {
        APIStoryTrayEntry(user: user, isMe: false, itemsCount: items, firstUnseen: 0, allSeen: allSeen, latestAt: "2026-11-25T08:00:00Z", avatar: nil)
    }

    /// `token` stands for the URLs' signature (`T` unless a test gives fresh ones).
    static func item(
        _ id: Int64, kind: APIStoryKind = .video, seen: Bool = false, liked: Bool = false, duration: Double = 5, token: String = "T"
    ) -> APIStoryItem {
        let media = kind == .video
            ? APIMedia(master: "/media/\(token)/\(id)/master.m3u8", encrypted: true,
                       poster: APIImage(url: "/img/\(token)/\(id)/poster.jpg", width: 720, height: 1280), thumbnail: nil, download: nil,
                       prefetch: APIPrefetch(rendition: "240p", playlist: "/media/\(token)/\(id)/240p/index.m3u8",
                                             initSegment: "/media/\(token)/\(id)/240p/init.mp4",
                                             firstSegment: "/media/\(token)/\(id)/240p/seg_00000.m4s", key: "/media/\(token)/\(id)/key"),
                       images: [], expiresAt: nil)
            : APIMedia(master: nil, encrypted: false, poster: nil, thumbnail: nil, download: nil, prefetch: nil,
                       images: [[APIImage(url: "/img/\(token)/\(id)/1080.jpg", width: 1080, height: 1920)]], expiresAt: nil)
        return APIStoryItem(
            id: id, kind: kind, seen: seen, liked: liked, postedAt: "2026-11-25T08:00:00Z", expiresAt: "2026-11-26T08:00:00Z",
            duration: duration, width: 720, height: 1280, media: media
        )
    }

    static func page(_ user: String, _ items: [APIStoryItem]) -> APIStoryUserPage {
        APIStoryUserPage(user: user, isMe: false, firstUnseen: items.firstIndex { !$0.seen } ?? 0, items: items)
    }
}
