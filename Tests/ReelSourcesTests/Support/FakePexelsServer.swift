import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReelSources

/// A local stand-in for the Pexels API, speaking its documented wire format, because the real
/// one must never be called from tests. It checks the key the way Pexels does (the bare key in
/// `Authorization`), pages listings with `page` / `per_page` / `next_page`, counts requests
/// against an hourly-style allowance with `X-Ratelimit-*` headers on its answers (and, like
/// Pexels, none on its 429s), and serves the listed files from `/files/…` without a key.
actor FakePexelsState {
    struct Video {
        var id: Int
        var user: String
        var userURL: String
        var page: String
        var duration: Int = 2
        /// Renditions as `(quality, width, height, file name)`; the file name is served from `files`.
        var renditions: [(quality: String, width: Int, height: Int, file: String)]
    }

    struct Photo {
        var id: Int
        var photographer: String
        var photographerURL: String
        var page: String
        var alt: String
        var width: Int = 3000
        var height: Int = 4500
        var file: String
    }

    struct Seen: Sendable {
        var path: String
        var query: [String: String]
        var authorization: String?
    }

    let apiKey: String
    let clock: TestClock
    var baseURL = ""
    var videos: [Video] = []
    var photos: [Photo] = []
    var files: [String: Data] = [:]
    private(set) var apiRequests: [Seen] = []
    private(set) var fileRequests: [Seen] = []
    private(set) var served429 = 0

    /// The allowance: `limit` requests until `resetAt` (Unix seconds), then `limit` again
    /// for another `window` seconds.
    var limit = 200
    var remaining = 200
    var resetAt: Double = 0
    var window: Double = 3600
    /// 429s to answer before anything else, each with the `Retry-After` it carries (or none).
    var forced429: [String?] = []

    init(apiKey: String, clock: TestClock) {
        self.apiKey = apiKey
        self.clock = clock
    }

    func configure(_ change: @Sendable (isolated FakePexelsState) -> Void) { change(self) }

    func recordFile(_ seen: Seen) { fileRequests.append(seen) }

    /// Answers an API request: the refusal, the 429 or the rate headers and the page bounds.
    func admit(_ seen: Seen) async -> (status: HTTPResponse.Status, headers: HTTPFields, retryAfter: String?) {
        apiRequests.append(seen)
        guard seen.authorization == apiKey else { return (.unauthorized, [:], nil) }
        if !forced429.isEmpty {
            served429 += 1
            return (.tooManyRequests, [:], forced429.removeFirst())
        }
        let now = await clock.now().timeIntervalSince1970
        if now >= resetAt {
            remaining = limit
            resetAt = now + window
        }
        guard remaining > 0 else {
            served429 += 1
            return (.tooManyRequests, [:], nil)
        }
        remaining -= 1
        var headers = HTTPFields()
        headers[HTTPField.Name("X-Ratelimit-Limit")!] = String(limit)
        headers[HTTPField.Name("X-Ratelimit-Remaining")!] = String(remaining)
        headers[HTTPField.Name("X-Ratelimit-Reset")!] = String(Int(resetAt))
        return (.ok, headers, nil)
    }

    func videoListing(path: String, page: Int, perPage: Int) -> String {
        let slice = Self.slice(videos.count, page: page, perPage: perPage)
        let items = videos[slice].map { video in
            let files = video.renditions.enumerated().map { index, rendition in
                #"{"id":\#(video.id * 10 + index),"quality":"\#(rendition.quality)","file_type":"video/mp4","width":\#(rendition.width),"height":\#(rendition.height),"fps":25,"link":"\#(baseURL)/files/\#(rendition.file)"}"#
            }
            let hls = #"{"id":\#(video.id * 10 + 9),"quality":"hls","file_type":"video/mp4","width":null,"height":null,"fps":null,"link":"\#(baseURL)/files/\#(video.id).m3u8"}"#
            return #"{"id":\#(video.id),"width":1080,"height":1920,"url":"\#(video.page)","image":"\#(baseURL)/files/poster.jpg","duration":\#(video.duration),"user":{"id":\#(video.id + 1000),"name":"\#(video.user)","url":"\#(video.userURL)"},"video_files":[\#((files + [hls]).joined(separator: ","))],"video_pictures":[]}"#
        }
        return listing(key: "videos", items: items, path: path, page: page, perPage: perPage, total: videos.count)
    }

    func photoListing(path: String, page: Int, perPage: Int) -> String {
        let slice = Self.slice(photos.count, page: page, perPage: perPage)
        let items = photos[slice].map { photo in
            let link = "\(baseURL)/files/\(photo.file)"
            let src = ["original", "large2x", "large", "medium", "small", "portrait", "landscape", "tiny"].map { key in
                #""\#(key)":"\#(link)?auto=compress&size=\#(key)""#
            }.joined(separator: ",")
            return ##"{"id":\##(photo.id),"width":\##(photo.width),"height":\##(photo.height),"url":"\##(photo.page)","photographer":"\##(photo.photographer)","photographer_url":"\##(photo.photographerURL)","photographer_id":\##(photo.id + 2000),"avg_color":"#978E82","src":{\##(src)},"liked":false,"alt":"\##(photo.alt)"}"##
        }
        return listing(key: "photos", items: items, path: path, page: page, perPage: perPage, total: photos.count)
    }

    private func listing(key: String, items: [String], path: String, page: Int, perPage: Int, total: Int) -> String {
        let next = page * perPage < total ? #","next_page":"\#(baseURL)\#(path)?page=\#(page + 1)&per_page=\#(perPage)""# : ""
        return #"{"page":\#(page),"per_page":\#(perPage),"total_results":\#(total)\#(next),"\#(key)":[\#(items.joined(separator: ","))]}"#
    }

    private static func slice(_ count: Int, page: Int, perPage: Int) -> Range<Int> {
        let start = min(count, (page - 1) * perPage)
        return start..<min(count, start + perPage)
    }
}

enum FakePexelsServer {
    static let apiKey = "563492ad6f91700001000001-test-key"

    /// Runs `body` against a fresh fake server listening on a loopback port.
    static func withLive(
        clock: TestClock = TestClock(), _ body: @Sendable (_ baseURL: String, _ state: FakePexelsState) async throws -> Void
    ) async throws {
        let state = FakePexelsState(apiKey: apiKey, clock: clock)
        let app = Application(router: router(state: state), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            guard let port = client.port else { throw HTTPError(.internalServerError, message: "the test server has no port") }
            let base = "http://127.0.0.1:\(port)"
            await state.configure { $0.baseURL = base }
            try await body(base, state)
        }
    }

    static func router(state: FakePexelsState) -> Router<BasicRequestContext> {
        let router = Router()
        for path in ["/videos/search", "/videos/popular", "/v1/search", "/v1/curated"] {
            router.get(RouterPath(path)) { request, _ -> Response in
                let seen = FakePexelsState.Seen(path: path, query: Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }) { a, _ in a },
                                                authorization: request.headers[.authorization])
                let (status, headers, retryAfter) = await state.admit(seen)
                switch status {
                case .ok: break
                case .unauthorized: return json(#"{"error":"Unauthorized"}"#, status: .unauthorized)
                default:
                    var fields = HTTPFields()
                    if let retryAfter { fields[.retryAfter] = retryAfter }
                    return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: "Too Many Requests")))
                }
                let isSearch = path.hasSuffix("/search")
                if isSearch, (seen.query["query"] ?? "").isEmpty { return json(#"{"code":"query is required"}"#, status: .badRequest) }
                let page = Int(seen.query["page"] ?? "1") ?? 1
                let perPage = min(80, Int(seen.query["per_page"] ?? "15") ?? 15)
                let body = path.hasPrefix("/videos")
                    ? await state.videoListing(path: path, page: page, perPage: perPage)
                    : await state.photoListing(path: path, page: page, perPage: perPage)
                var response = json(body, status: .ok)
                response.headers.append(contentsOf: headers)
                return response
            }
        }
        router.get("/files/{name}") { request, context -> Response in
            let name = try context.parameters.require("name")
            await state.recordFile(.init(path: "/files/\(name)", query: [:], authorization: request.headers[.authorization]))
            guard let data = await state.files[name] else { return json(#"{"error":"Not Found"}"#, status: .notFound) }
            return Response(status: .ok, headers: [.contentType: name.hasSuffix(".mp4") ? "video/mp4" : "image/jpeg"],
                            body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        return router
    }

    static func json(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// A clock tests own: `sleep` returns at once and moves the time on, and every wait is kept.
actor TestClock: SourceClock {
    private(set) var current: Date
    private(set) var sleeps: [Double] = []

    init(start: Date = Date(timeIntervalSince1970: 1_760_000_000)) {
        current = start
    }

    func now() -> Date { current }

    func sleep(seconds: Double) {
        sleeps.append(seconds)
        current = current.addingTimeInterval(seconds)
    }
}
