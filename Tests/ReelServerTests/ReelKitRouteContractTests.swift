import Foundation
import ReelKit
import ReelLibrary
import ReelMedia
import ReelModels
import ReelPipeline
import ReelStorage
import ReelStorageLocal
import Testing
@testable import ReelServer

/// Every request ReelKit makes names a route the server registers (the same table the router
/// and the OpenAPI document come from), with the method it registers. A renamed route, or a
/// ReelKit call to a path that does not exist, fails here instead of in an app.
@Suite("ReelKit's paths are the server's routes")
struct ReelKitRouteContractTests {
    /// Records each request and answers 200 with an empty object and an upload location, so
    /// every call gets as far as sending (decoding the answer may then fail; that is fine here).
    actor RecordingTransport: HTTPTransport {
        private(set) var requests: [HTTPRequestValue] = []

        func send(_ request: HTTPRequestValue) async throws(ReelAPIError) -> HTTPResponseValue {
            requests.append(request)
            return HTTPResponseValue(
                status: 200, headers: ["Location": "/api/v1/uploads/0123abcd", "Upload-Offset": "0", "Upload-Length": "4"],
                body: Data("{}".utf8)
            )
        }
    }

    /// True when `path` is an instance of the OpenAPI-style `template`.
    static func matches(_ path: String, _ template: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let pattern = template.split(separator: "/", omittingEmptySubsequences: false)
        for (index, piece) in pattern.enumerated() {
            if piece.hasPrefix("{"), piece.hasSuffix("+}") { return parts.count > index }
            guard index < parts.count else { return false }
            if piece.hasPrefix("{"), piece.hasSuffix("}") { if parts[index].isEmpty { return false } else { continue } }
            if piece != parts[index] { return false }
        }
        return parts.count == pattern.count
    }

    @Test func everyClientCallHitsARegisteredRoute() async throws {
        let server = try await TestServer()
        let uploadsRoot = server.root.appendingPathComponent("uploads")
        var dependencies = server.dependencies
        let policy = UploadPolicy()
        let uploadStorage = LocalUploadStorage(root: uploadsRoot)
        dependencies.uploads = UploadDependencies(
            storage: uploadStorage, imports: UploadImports(jobs: server.store, storage: uploadStorage), policy: policy
        )
        let routes = buildRouter(configuration: server.configuration, dependencies: dependencies).1.routes

        let transport = RecordingTransport()
        let client = ReelClient(baseURL: URL(string: "http://127.0.0.1:9/")!, credentials: .apiKey("k"), transport: transport)
        _ = try? await client.login(username: "a", password: "b")
        _ = try? await client.me()
        _ = try? await client.feed(cursor: "c", limit: 3, query: FeedQuery(tags: ["x"]))
        _ = try? await client.video(id: 7)
        _ = try? await client.favorites(cursor: "c", limit: 2)
        _ = try? await client.tags()
        _ = try? await client.jobs(state: "queued", limit: 5)
        _ = try? await client.job(id: 7)
        _ = try? await client.cancelJob(id: 7)
        _ = try? await client.retryJob(id: 7)
        _ = try? await client.setFavorite(true, videoID: 7)
        _ = try? await client.setFavorite(false, videoID: 7)
        _ = try? await client.setRating(3, videoID: 7)
        _ = try? await client.setPosition(1.5, videoID: 7)
        _ = try? await client.markSeen(videoID: 7)
        _ = try? await client.addTags(["x"], videoID: 7)
        _ = try? await client.removeTag("x y", videoID: 7)
        _ = try? await client.addFlag("nsfw", videoID: 7)
        _ = try? await client.removeFlag("nsfw", videoID: 7)
        _ = try? await client.generationProviders()
        _ = try? await client.createGeneration(APIGenerationRequest(prompt: "a cat"))
        _ = try? await client.generations()
        _ = try? await client.generation(id: 7)
        _ = try? await client.publishGeneration(id: 7)
        _ = try? await client.discardGeneration(id: 7)
        _ = try? await client.regenerate(id: 7, APIRegenerateRequest(prompt: "a dog"))
        _ = try? await client.createUpload(length: 4, metadata: ["filename": "a.mp4"])
        _ = try? await client.uploadStatus(at: "/api/v1/uploads/0123abcd")
        _ = try? await client.appendUpload(at: "/api/v1/uploads/0123abcd", offset: 0, chunk: Data("abcd".utf8))
        _ = try? await client.deleteUpload(at: "/api/v1/uploads/0123abcd")
        try? await client.logout()

        let requests = await transport.requests
        #expect(requests.count >= 30, "every call above reached the transport")
        for request in requests {
            let path = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false)).percentEncodedPath
            let route = routes.first { $0.method == request.method && Self.matches(path, $0.path) }
            #expect(route != nil, "ReelKit sends \(request.method) \(path), which no server route serves")
        }
    }

    @Test func theMatcherItselfCanSayNo() {
        #expect(Self.matches("/api/v1/videos/7/tags/x%20y", "/api/v1/videos/{id}/tags/{tag}"))
        #expect(!Self.matches("/api/v1/videos/7", "/api/v1/videos/{id}/tags/{tag}"))
        #expect(!Self.matches("/api/v1/video/7", "/api/v1/videos/{id}"))
        #expect(Self.matches("/media/t/7/240p/index.m3u8", "/media/{token}/{id}/{file+}"))
    }
}
