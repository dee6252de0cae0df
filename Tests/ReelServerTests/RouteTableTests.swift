import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

@Suite("Route table")
struct RouteTableTests {
    /// Fills a route template with harmless values.
    static func sample(_ path: String) -> String { samplePath(path, folder: "some-folder") }

    @Test func everyRouteButThePublicOnesAnswers401WithoutCredentials() async throws {
        let server = try await TestServer()
        let (router, registry) = server.router()
        let routes = registry.routes
        #expect(routes.count >= 20)
        try await Application(router: router).test(.router) { client in
            for route in routes {
                let method = HTTPRequest.Method(route.method)!
                let body = [.post, .put].contains(method) ? "{}" : nil
                let response = try await client.send(method, Self.sample(route.path), json: body)
                switch route.access {
                case .user, .owner:
                    #expect(response.status == .unauthorized, "\(route.method) \(route.path) answered \(response.status)")
                    let error = try decode(APIErrorEnvelope.self, response.body)
                    #expect(error.error.code == "unauthorized")
                case .mediaToken, .compat:
                    #expect(response.status.code >= 400 && response.status.code < 500, "\(route.method) \(route.path) answered \(response.status) for a bogus capability")
                case .public:
                    #expect(response.status.code < 500, "\(route.path)")
                }
            }
        }
        // The public list is short and deliberate.
        let publicRoutes = Set(routes.filter { $0.access == .public }.map { "\($0.method) \($0.path)" })
        #expect(publicRoutes == ["GET /health", "GET /ready", "GET /openapi.json", "POST /api/v1/session"])
    }

    @Test func memberCannotReadMetrics() async throws {
        let server = try await TestServer()
        try await server.application().test(.router) { client in
            let r1 = try await client.send(.get, "/metrics", key: server.memberKey)
            #expect(r1.status == .forbidden)
            let owner = try await client.send(.get, "/metrics", key: server.ownerKey)
            #expect(owner.status == .ok)
            #expect(String(decoding: owner.body, as: UTF8.self).contains("reelhouse_http_requests_total"))
        }
    }

    @Test func openAPIDocumentDescribesExactlyTheRouterRoutes() async throws {
        let server = try await TestServer()
        let (router, registry) = server.router()
        try await Application(router: router).test(.router) { client in
            let response = try await client.send(.get, "/openapi.json")
            #expect(response.status == .ok)
            let document = try JSONSerialization.jsonObject(with: response.body) as! [String: Any]
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = document["paths"] as! [String: [String: Any]]
            var documented = Set<String>()
            for (path, operations) in paths {
                for method in operations.keys { documented.insert("\(method.uppercased()) \(path)") }
            }
            // OpenAPI spells a catch-all `{file+}` as `{file}`.
            let registered = Set(registry.routes.map { "\($0.method) \(OpenAPIDocument.documentedPath($0.path))" })
            #expect(documented == registered)
            // And every documented route really is served: a route-level miss says "<path> was not found".
            for route in registry.routes {
                // Not key 1: revoking the owner's own key would sign every later call out.
                let uri = route.path == "/api/v1/me/keys/{id}" ? "/api/v1/me/keys/999" : Self.sample(route.path)
                let method = HTTPRequest.Method(route.method)!
                let answer = try await client.send(method, uri, key: server.ownerKey, json: [.post, .put].contains(method) ? "{}" : nil)
                if answer.status == .notFound {
                    let error = try decode(APIErrorEnvelope.self, answer.body)
                    #expect(error.error.message != "\(uri) was not found", "\(route.method) \(route.path) is documented but not routed")
                }
            }
        }
    }

    @Test func unknownRoutesAreJSON404s() async throws {
        let server = try await TestServer()
        try await server.application().test(.router) { client in
            let response = try await client.send(.get, "/api/v1/nope", key: server.ownerKey)
            #expect(response.status == .notFound)
            #expect(try decode(APIErrorEnvelope.self, response.body).error.code == "not_found")
        }
    }
}

struct APIErrorEnvelope: Decodable {
    struct Detail: Decodable {
        var code: String
        var message: String
    }
    var error: Detail
}
