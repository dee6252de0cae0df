import Foundation
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStore
import Testing
@testable import ReelServer

/// Features plug in: a feature declares its routes in its own file, and `buildRouter` takes
/// it without a line of wiring. This one is declared here, outside the server module.
struct LibraryCountFeature: ServerFeature {
    struct Count: Codable { let posts: Int }

    func register(in server: FeatureContext) {
        let library = server.dependencies.library
        let doc = OperationDoc(responses: [
            "200": OperationDoc.json(["type": "object", "required": ["posts"], "properties": ["posts": ["type": "integer"]]], "the count"),
        ])
        server.routes("test").on(.get, "/api/v1/test/post-count", access: .owner, "How many posts the library holds", doc: doc) { _, context in
            try Response.json(Count(posts: try await library.countPosts(status: nil)), context: context)
        }
    }
}

@Suite("Server features")
struct ServerFeatureTests {
    @Test func aFeatureBringsItsRoutesWithTheirAccessAndDocumentation() async throws {
        let server = try await TestServer()
        try await server.publishVideo(name: "one")
        let (router, registry) = buildRouter(
            configuration: server.configuration, dependencies: server.dependencies, metrics: MetricsRegistry(),
            features: ServerFeatures.standard + [LibraryCountFeature()]
        )
        #expect(registry.routes.contains(RouteSpec(method: "GET", path: "/api/v1/test/post-count", access: .owner, summary: "How many posts the library holds", tag: "test")))
        try await Application(router: router).test(.router) { client in
            #expect(try await client.send(.get, "/api/v1/test/post-count").status == .unauthorized)
            #expect(try await client.send(.get, "/api/v1/test/post-count", key: server.memberKey).status == .forbidden)
            let answer = try await client.send(.get, "/api/v1/test/post-count", key: server.ownerKey)
            #expect(answer.status == .ok)
            #expect(try decode(LibraryCountFeature.Count.self, answer.body).posts == 1)
            // Documented from its registration, without an OperationCatalog entry.
            let document = try JSONSerialization.jsonObject(with: try await client.send(.get, "/openapi.json").body) as! [String: Any]
            let operation = ((document["paths"] as! [String: Any])["/api/v1/test/post-count"] as! [String: Any])["get"] as! [String: Any]
            let ok = (operation["responses"] as! [String: Any])["200"] as! [String: Any]
            #expect(ok["description"] as? String == "the count" && operation["x-access"] as? String == "owner")
        }
        // The standard server has no such route: only the feature list made it.
        #expect(!server.router().1.routes.contains { $0.path == "/api/v1/test/post-count" })
    }

    /// Every route the server serves belongs to exactly one of the standard features.
    @Test func theStandardFeaturesTogetherAreTheServer() async throws {
        let server = try await TestServer()
        var byFeature: [RouteSpec] = []
        for feature in ServerFeatures.standard {
            let (_, registry) = buildRouter(
                configuration: server.configuration, dependencies: server.dependencies, metrics: MetricsRegistry(), features: [feature]
            )
            #expect(!registry.routes.isEmpty || feature is UploadFeature || feature is CompatFeature || feature is GenerationFeature, "\(type(of: feature)) registered nothing")
            byFeature += registry.routes
        }
        let all = server.router().1.routes
        #expect(Set(byFeature.map { "\($0.method) \($0.path)" }) == Set(all.map { "\($0.method) \($0.path)" }))
        #expect(byFeature.count == all.count)
    }
}
