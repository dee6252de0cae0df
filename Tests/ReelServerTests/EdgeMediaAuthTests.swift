import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReelModels
import Testing

@testable import ReelServer

/// `GET /internal/media-auth`, the check nginx's `auth_request` makes (see `MediaAuthController`),
/// over the router with the media fixture's real files and SQLite rows.
@Suite("Edge media check")
struct EdgeMediaAuthTests {
    /// What the edge's check said about one URI: 204 with a path, or a refusal with the status
    /// the client is to get.
    struct Answer: Equatable {
        var status: Int
        var path: String?
        var cacheControl: String?
        var errorCode: String?
    }

    static func ask(_ client: some TestClientProtocol, _ uri: String?) async throws -> Answer {
        var headers = HTTPFields()
        if let uri { headers[MediaAuthController.originalURI] = uri }
        let response = try await client.execute(uri: "/internal/media-auth", method: .get, headers: headers)
        if response.status == .noContent {
            #expect(response.headers[MediaAuthController.statusHeader] == nil)
            return Answer(status: 204, path: response.headers[MediaAuthController.pathHeader], cacheControl: response.headers[.cacheControl])
        }
        // nginx passes on only 2xx, 401 and 403: every refusal is a 403 naming the real status.
        #expect(response.status == .forbidden, "\(uri ?? "no header"): \(response.status)")
        #expect(response.headers[MediaAuthController.pathHeader] == nil, "a refusal names no file: \(uri ?? "")")
        #expect(!MediaFixture.containsCanary(response.body))
        let status = Int(response.headers[MediaAuthController.statusHeader] ?? "") ?? -1
        let code = try? JSONDecoder().decode(APIErrorEnvelope.self, from: Data(response.body.readableBytesView)).error.code
        return Answer(status: status, path: nil, cacheControl: response.headers[.cacheControl], errorCode: code)
    }

    @Test("Every listed file and image of a post: 204, its path, and the token's remaining life up to 30 s")
    func allowed() async throws {
        let fixture = try await MediaFixture()
        let post = fixture.postA!
        let remaining = min(
            fixture.tokens.expiry(now: fixture.clock.now) - Int64(fixture.clock.now.timeIntervalSince1970), MediaAuthController.answerSeconds
        )
        let master = fixture.mediaURL(post, "master.m3u8")
        try await fixture.edgeApplication().test(.router) { client in
            for name in ["master.m3u8", "720p/index.m3u8", "720p/init.mp4", "720p/seg_00000.m4s", "720p/seg_00001.m4s", "download.mp4"] {
                let answer = try await Self.ask(client, fixture.mediaURL(post, name))
                #expect(answer == Answer(status: 204, path: "\(post.id)/\(name)", cacheControl: "max-age=\(remaining)"), "\(name)")
            }
            // The query is not part of the name (nginx forwards `$request_uri` whole).
            let withQuery = try await Self.ask(client, fixture.mediaURL(post, "720p/seg_00000.m4s") + "?v=1&x=../../secret")
            #expect(withQuery.path == "\(post.id)/720p/seg_00000.m4s")

            for image in [post.media!.poster!, post.media!.thumbnail!] {
                let answer = try await Self.ask(client, fixture.imageURL(post, image))
                #expect(answer == Answer(status: 204, path: "\(post.id)/\(image.path)", cacheControl: "max-age=\(MediaAuthController.answerSeconds)"))
            }

            // The answer lives at most `answerSeconds` (revocation reaches the edge within it) and
            // never longer than the token: 10 s before it expires, 10 s.
            let life = fixture.tokens.expiry(now: fixture.clock.now) - Int64(fixture.clock.now.timeIntervalSince1970)
            fixture.clock.advance(TimeInterval(life - 10))
            let later = try await Self.ask(client, master)
            #expect(later.cacheControl == "max-age=10")
        }
    }

    @Test("Forged and foreign tokens and signatures: 403, kept a minute")
    func forged() async throws {
        let fixture = try await MediaFixture()
        let postA = fixture.postA!, postB = fixture.postB!
        try await fixture.edgeApplication().test(.router) { client in
            var token = Array(fixture.token(postA))
            token[token.count - 3] = token[token.count - 3] == "A" ? "B" : "A"
            let forgedURIs = [
                fixture.mediaURL(postA, "master.m3u8", token: String(token)),
                fixture.mediaURL(postA, "master.m3u8", token: fixture.token(postB)),
                fixture.mediaURL(postA, "master.m3u8", token: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
                fixture.mediaURL(postA, "master.m3u8", token: "not-base64-%2f%2e%2e"),
                "/img/AAAAAAAAAAAAAAAA/\(postA.id)/\(postA.media!.poster!.contentHash)/poster.jpg",
                // Post B's image signature on post A's id.
                fixture.imageURL(postB, postB.media!.poster!).replacingOccurrences(of: "/\(postB.id)/", with: "/\(postA.id)/"),
            ]
            for uri in forgedURIs {
                let answer = try await Self.ask(client, uri)
                #expect(answer == Answer(status: 403, cacheControl: "max-age=60", errorCode: "forbidden"), "\(uri)")
            }
        }
    }

    @Test("An expired token: 410 (code expired), kept a minute")
    func expired() async throws {
        let fixture = try await MediaFixture()
        let uri = fixture.mediaURL(fixture.postA, "720p/seg_00000.m4s")
        try await fixture.edgeApplication().test(.router) { client in
            #expect(try await Self.ask(client, uri).status == 204)
            fixture.clock.advance(TimeInterval(fixture.tokens.window + fixture.tokens.margin + 1))
            let answer = try await Self.ask(client, uri)
            #expect(answer == Answer(status: 410, cacheControl: "max-age=60", errorCode: "expired"))
        }
    }

    @Test("Unknown posts, unpublished posts, unlisted files, keys and symbolic links: 404, not kept")
    func notFound() async throws {
        let fixture = try await MediaFixture()
        let postA = fixture.postA!, postC = fixture.postC!, pending = fixture.pending!
        let missingID: Int64 = 987_654
        try await fixture.edgeApplication().test(.router) { client in
            let uris = [
                "/media/\(fixture.tokens.token(postID: missingID, now: fixture.clock.now))/\(missingID)/master.m3u8",
                fixture.mediaURL(pending, "master.m3u8"),
                fixture.mediaURL(postA, "720p/seg_00002.m4s"),
                fixture.mediaURL(postA, "240p/index.m3u8"),
                // Keys are proxied to the API on every request, never authorised at the edge.
                fixture.mediaURL(postA, "key"),
                // Listed, but links out of the post's folder on disk.
                fixture.mediaURL(postC, "720p/seg_00000.m4s"),
                fixture.mediaURL(postC, "480p/index.m3u8"),
                "/img/\(fixture.images.signature(postID: postA.id, contentHash: "0123456789abcdef"))/\(postA.id)/0123456789abcdef/poster.jpg",
                "/api/v1/feed", "/", "", "media/x/1/master.m3u8",
            ]
            for uri in uris {
                let answer = try await Self.ask(client, uri)
                #expect(answer.status == 404 && answer.cacheControl == "no-store" && answer.errorCode == "not_found", "\(uri): \(answer)")
            }
            // A listed regular file of post C is fine.
            #expect(try await Self.ask(client, fixture.mediaURL(postC, "720p/seg_00001.m4s")).path == "\(postC.id)/720p/seg_00001.m4s")
            // Without the header (nginx misconfigured): refused, never allowed.
            #expect(try await Self.ask(client, nil).status == 400)
        }
    }

    @Test("Traversal, encoded and double-encoded slashes and dots: refused, never a path")
    func traversal() async throws {
        let fixture = try await MediaFixture()
        let post = fixture.postA!
        let token = fixture.token(post)
        let names = MediaPathSafetyTests.hostileNames(root: fixture.root, otherPostID: fixture.postB.id) + [
            "..%2fmaster.m3u8", "720p%2fseg_00000.m4s", "720p%252fseg_00000.m4s", "%2e%2e%2f%2e%2e%2fsecret", "720p/%2e%2e/master.m3u8",
            "720p/seg_00000.m4s%2f..%2f..%2f..%2fsecret", "720p/seg_00000.m4s/", "720p/seg_00000.m4s/.", "720p\\seg_00000.m4s",
        ]
        let wholeURIs = [
            "/media/\(token)/\(post.id)/../\(fixture.postB.id)/master.m3u8", "/media/\(token)/../\(post.id)/master.m3u8",
            "/media/\(token)/%2e%2e/\(post.id)/master.m3u8", "/%6dedia/\(token)/\(post.id)/master.m3u8", "//media/\(token)/\(post.id)/master.m3u8",
            "/media//\(token)/\(post.id)/master.m3u8", "/img/../media/\(token)/\(post.id)/master.m3u8", "/media/\(token)/0\(post.id)/master.m3u8",
            "/media/\(token)/\(post.id)", "/media/\(token)/\(post.id)/", "/img/x/\(post.id)/abc/../../etc/passwd",
            "/media/\(token)/\(post.id)/" + String(repeating: "a", count: 2000),
        ]
        try await fixture.edgeApplication().test(.router) { client in
            for uri in names.map({ fixture.mediaURL(post, $0) }) + wholeURIs {
                let answer = try await Self.ask(client, uri)
                #expect((400..<500).contains(answer.status) && answer.path == nil, "\(uri.prefix(200)): \(answer)")
            }
        }
    }

    /// The edge and the API's own route, asked about the same URIs, agree on every one: a
    /// file served by one is served by the other, and a refusal has the same status.
    @Test("The edge answers every URI as the media route does")
    func agreesWithTheMediaRoute() async throws {
        let fixture = try await MediaFixture()
        let postA = fixture.postA!, postB = fixture.postB!, postC = fixture.postC!
        var list = ["master.m3u8", "720p/index.m3u8", "720p/seg_00001.m4s", "download.mp4", "240p/index.m3u8", "nope"]
            .map { fixture.mediaURL(postA, $0) }
        list += MediaPathSafetyTests.hostileNames(root: fixture.root, otherPostID: postB.id).map { fixture.mediaURL(postA, $0) }
        list += ["720p/seg_00000.m4s", "480p/init.mp4", "720p/seg_00001.m4s"].map { fixture.mediaURL(postC, $0) }
        list += [fixture.mediaURL(postA, "master.m3u8", token: fixture.token(postB)), fixture.mediaURL(postB, "240p/init.mp4"),
                 fixture.imageURL(postA, postA.media!.poster!), fixture.imageURL(postB, postB.media!.thumbnail!),
                 "/img/AAAAAAAAAAAAAAAA/\(postA.id)/\(postA.media!.poster!.contentHash)/poster.jpg"]
        let uris = list
        let expiring = fixture.mediaURL(postA, "720p/init.mp4")
        try await fixture.edgeApplication().test(.router) { client in
            func compare(_ uri: String) async throws {
                let edge = try await Self.ask(client, uri)
                let api = try await client.execute(uri: uri, method: .get)
                #expect(edge.status == (api.status == .ok ? 204 : Int(api.status.code)), "\(uri.prefix(200)): edge \(edge.status), API \(api.status.code)")
            }
            for uri in uris { try await compare(uri) }
            fixture.clock.advance(TimeInterval(fixture.tokens.window + fixture.tokens.margin + 1))
            try await compare(expiring)
        }
    }

    @Test("The original URI is split like the route templates: undecoded, empty parts kept")
    func parsing() {
        #expect(OriginalMediaURI.parse("/media/T/12/720p/seg.m4s?x=1") == .media(token: "T", id: "12", name: "720p/seg.m4s"))
        #expect(OriginalMediaURI.parse("/media/T/12/720p//seg.m4s") == .media(token: "T", id: "12", name: "720p//seg.m4s"))
        #expect(OriginalMediaURI.parse("/media/T/12/..%2f..%2fx") == .media(token: "T", id: "12", name: "..%2f..%2fx"))
        #expect(OriginalMediaURI.parse("/media/T/12/") == .media(token: "T", id: "12", name: ""))
        #expect(OriginalMediaURI.parse("/img/S/12/H/poster.jpg") == .image(signature: "S", id: "12", hash: "H", file: "poster.jpg"))
        for refused in ["/img/S/12/H/a/poster.jpg", "/img/S/12/H", "/img//12/H/p.jpg", "/media/T/12", "/media//12/x", "media/T/1/x",
                        "/%6dedia/T/1/x", "/api/v1/feed", "", "/media/T/1/" + String(repeating: "x", count: 1100)] {
            #expect(OriginalMediaURI.parse(refused) == nil, "\(refused.prefix(40))")
        }
    }
}

extension MediaFixture {
    /// The media routes and the edge's check, wired as `buildRouter` wires them (one shared
    /// `MediaRequestCheck`), behind the error mapping.
    func edgeApplication() -> some ApplicationProtocol {
        let router = Router(context: AppRequestContext.self)
        let registry = RouteRegistry()
        router.add(middleware: ErrorMiddleware(routes: registry))
        let clock = self.clock
        let media = MediaController(library: store, storage: storage, tokens: tokens, images: images, access: access, now: { clock.now })
        media.register(APIRoutes(router: router, registry: registry, tag: "media"))
        MediaAuthController(check: media.check, storage: storage).register(APIRoutes(router: router, registry: registry, tag: "edge"))
        return Application(router: router)
    }
}
