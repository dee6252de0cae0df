import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import Testing
@testable import ReelServer

/// The OpenAPI document is complete (every route has its schemas) and honest (real answers of
/// the router match what it says, statuses included).
@Suite("OpenAPI schemas")
struct OpenAPISchemaTests {
    /// Fills a route template with values that exist in `prepared()`'s library.
    static func sample(_ path: String) -> String { samplePath(path, folder: "first-clip") }

    /// A valid body for each route that reads JSON.
    static let bodies: [String: String] = [
        "POST /api/v1/session": #"{"username":"owner","password":"correct horse battery"}"#,
        "PUT /api/v1/videos/{id}/rating": #"{"rating":4}"#,
        "PUT /api/v1/videos/{id}/position": #"{"seconds":1.5}"#,
        "POST /api/v1/videos/{id}/tags": #"{"tags":["cats"]}"#,
        "POST /api/v1/videos/{id}/flags": #"{"flag":"broken"}"#,
        "POST /api/v1/me/searches": #"{"query":"crème brûlée"}"#,
        "POST /api/videos/{folder}/favorite": #"{"is_favorited":true}"#,
        "POST /api/videos/{folder}/rating": #"{"rating":3}"#,
        "POST /api/v1/generations": #"{"prompt":"a harbour at dusk"}"#,
        "POST /api/v1/generations/{id}/publish": #"{"tags":["made"]}"#,
        "POST /api/v1/generations/{id}/regenerate": #"{"prompt":"a harbour at dawn"}"#,
        "PUT /api/v1/me/password": #"{"current_password":"correct horse battery","new_password":"correct horse battery"}"#,
        "POST /api/v1/me/keys": #"{"name":"spare"}"#,
        "PUT /api/v1/videos/{id}": #"{"description":"First clip\nfrom the harbour","tags":["cats","dogs"]}"#,
        "POST /api/v1/libraries": #"{"name":"Family"}"#,
        "PUT /api/v1/libraries/{id}": #"{"name":"Library"}"#,
        "POST /api/v1/collections": #"{"name":"Trips","post_ids":[1]}"#,
        "PUT /api/v1/collections/{id}": #"{"name":"Road trips"}"#,
        "POST /api/v1/collections/{id}/items": #"{"post_id":1}"#,
        "POST /api/v1/stories/seen": #"{"items":[1]}"#,
        "POST /api/v1/events": #"{"events":[{"event_id":"3b1f6c1e-9a4e-4b7e-9a51-0d2c6f1e2a10","type":"like","post_id":1,"at":"\#(WatchEvent.timestamp(Date()))"}]}"#,
    ]

    /// Routes whose sample id must not be 1: revoking key 1 (the owner's) would sign the
    /// remaining calls out, so the key `POST /api/v1/me/keys` made (id 3) is revoked instead.
    static func sample(_ route: RouteSpec) -> String {
        "\(route.method) \(route.path)" == "DELETE /api/v1/me/keys/{id}" ? "/api/v1/me/keys/3" : sample(route.path)
    }

    /// Read-only after `prepared()` builds it.
    struct Prepared: @unchecked Sendable {
        let server: TestServer
        let document: [String: Any]
        let registry: RouteRegistry
        var routes: [RouteSpec] { registry.routes }
        var validator: SchemaValidator {
            SchemaValidator(components: (document["components"] as! [String: Any])["schemas"] as! [String: Any])
        }

        func operation(_ route: RouteSpec) -> [String: Any] {
            let paths = document["paths"] as! [String: [String: Any]]
            return paths[OpenAPIDocument.documentedPath(route.path)]![route.method.lowercased()] as! [String: Any]
        }
    }

    func prepared() async throws -> Prepared {
        // Job event streams end after a second instead of ten minutes.
        let server = try await TestServer {
            $0[JobSettings.self].eventStreamLifetimeSeconds = 1
            $0[CompatSettings.self].compatRoutes = true  // off by default; their schemas are documented too
        }
        // With subtitles, so every answer that carries the item validates its `captions` too.
        _ = try await CaptionRouteTests.addSubtitles(to: try await server.publishVideo(name: "first-clip", tags: ["cats"]), server: server)
        let (_, registry) = server.router()
        let data = try OpenAPIDocument.json(for: registry)
        return Prepared(server: server, document: try JSONSerialization.jsonObject(with: data) as! [String: Any], registry: registry)
    }

    @Test func everyRouteHasItsSchemas() async throws {
        let prepared = try await prepared()
        for route in prepared.routes {
            let name = "\(route.method) \(route.path)"
            guard let doc = prepared.registry.doc(for: route) else {
                Issue.record("\(name) is documented neither where it is registered nor in OperationCatalog")
                continue
            }
            let successes = doc.responses.filter { $0.key.hasPrefix("2") }
            #expect(!successes.isEmpty, "\(name) documents no success response")
            for (status, response) in successes where status != "204" && status != "201" && route.method != "HEAD" {
                let content = response["content"] as? [String: Any] ?? [:]
                #expect(!content.isEmpty, "\(name) \(status) has no content schema")
            }
            if Self.bodies[name] != nil {
                #expect(doc.requestBody != nil, "\(name) reads a JSON body but documents none")
            }
            let operation = prepared.operation(route)
            let responses = operation["responses"] as! [String: Any]
            for status in ["400", "404"] { #expect(responses[status] != nil, "\(name) lacks \(status)") }
            if route.access == .user || route.access == .owner {
                #expect(responses["401"] != nil && (operation["security"] as? [Any])?.isEmpty == false, "\(name) does not say it needs credentials")
            } else {
                #expect((operation["security"] as? [Any])?.isEmpty == true, "\(name) is public but documents security")
            }
        }
    }

    @Test func everyReferenceAndLinkResolves() async throws {
        let prepared = try await prepared()
        let text = String(decoding: try JSONSerialization.data(withJSONObject: prepared.document), as: UTF8.self)
        let schemas = (prepared.document["components"] as! [String: Any])["schemas"] as! [String: Any]
        for match in text.matches(of: /#\/components\/schemas\/([A-Za-z]+)/) {
            #expect(schemas[String(match.1)] != nil, "unresolved \(match.0)")
        }
        var operations: [String: [String: Any]] = [:]
        for route in prepared.routes {
            operations[OpenAPIDocument.operationID(route.method, route.path)] = prepared.operation(route)
        }
        for route in prepared.routes {
            let responses = prepared.operation(route)["responses"] as! [String: [String: Any]]
            for response in responses.values {
                for link in (response["links"] as? [String: [String: Any]] ?? [:]).values {
                    let target = operations[link["operationId"] as! String]
                    #expect(target != nil, "a link of \(route.path) points at \(link["operationId"]!)")
                    let names = Set(((target?["parameters"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String })
                    for parameter in (link["parameters"] as? [String: String] ?? [:]).keys {
                        #expect(names.contains(parameter), "link parameter \(parameter) is not a parameter of \(link["operationId"]!)")
                    }
                }
            }
        }
    }

    /// Calls every route with the owner's key (GETs first, DELETEs last) and checks each answer
    /// against the document: the status is documented, a JSON body matches its schema.
    @Test func realAnswersMatchTheDocument() async throws {
        let prepared = try await prepared()
        let server = prepared.server
        let order = ["GET": 0, "HEAD": 0, "OPTIONS": 0, "POST": 1, "PUT": 1, "PATCH": 1, "DELETE": 2]
        let routes = prepared.routes.sorted { (order[$0.method] ?? 1, $0.path) < (order[$1.method] ?? 1, $1.path) }
        let validated = try await server.application().test(.router) { client in
            var validated: Set<String> = []
            // Generation 1 exists before the GETs run.
            let created = try await client.send(.post, "/api/v1/generations", key: server.ownerKey, json: Self.bodies["POST /api/v1/generations"])
            #expect(created.status == .accepted)
            for route in routes {
                let name = "\(route.method) \(route.path)"
                let method = HTTPRequest.Method(route.method)!
                var headers: HTTPFields = [:]
                if route.path.hasPrefix("/api/v1/uploads") { headers[HTTPField.Name("Tus-Resumable")!] = "1.0.0" }
                if name == "POST /api/v1/uploads" { headers[HTTPField.Name("Upload-Length")!] = "10" }
                let answer = try await client.send(method, Self.sample(route), key: server.ownerKey, headers: headers, json: Self.bodies[name])
                let responses = prepared.operation(route)["responses"] as! [String: [String: Any]]
                let status = String(answer.status.code)
                guard let response = responses[status] else {
                    Issue.record("\(name) answered \(status), which is not documented: \(String(decoding: answer.body, as: UTF8.self))")
                    continue
                }
                guard answer.headers[.contentType]?.hasPrefix("application/json") == true, !answer.body.isEmpty else { continue }
                let schema = try #require(((response["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"] as? [String: Any],
                                          "\(name) \(status) answered JSON but documents none")
                let problems = prepared.validator.violations(try JSONValue.parse(answer.body), schema)
                #expect(problems.isEmpty, "\(name) \(status): \(problems)")
                if answer.status.code < 300 { validated.insert(name) }
            }
            return validated
        }
        // The wire types that matter most were really checked against a 2xx answer.
        for name in ["GET /api/v1/feed", "GET /api/v1/videos/{id}", "GET /api/v1/me", "GET /api/v1/tags", "GET /api/v1/jobs", "GET /api/v1/jobs/{id}",
                     "GET /api/v1/favorites", "GET /api/feed/random", "POST /api/v1/generations", "GET /api/v1/generations",
                     "GET /api/v1/generations/{id}", "GET /api/v1/generations/providers", "PUT /api/v1/videos/{id}/rating",
                     "POST /api/v1/videos/{id}/tags", "POST /api/v1/session", "GET /health", "GET /api/v1/me/keys", "POST /api/v1/me/keys",
                     "GET /api/v1/libraries", "POST /api/v1/libraries", "PUT /api/v1/libraries/{id}", "PUT /api/v1/videos/{id}",
                     "GET /api/v1/browse", "GET /api/v1/discover", "GET /api/v1/collections", "POST /api/v1/collections",
                     "PUT /api/v1/collections/{id}", "POST /api/v1/collections/{id}/items"] {
            #expect(validated.contains(name), "\(name) gave no 2xx JSON answer to validate")
        }
    }

    /// A route documented without a body never asks for one.
    @Test func routesWithoutADocumentedBodyReadNone() async throws {
        let prepared = try await prepared()
        try await prepared.server.application().test(.router) { client in
            for route in prepared.routes where ["POST", "PUT", "PATCH", "DELETE"].contains(route.method) {
                guard prepared.registry.doc(for: route)?.requestBody == nil else { continue }
                let answer = try await client.send(HTTPRequest.Method(route.method)!, Self.sample(route), key: prepared.server.ownerKey)
                let text = String(decoding: answer.body, as: UTF8.self)
                #expect(!text.contains("JSON body") && !text.contains("request body"), "\(route.method) \(route.path): \(text)")
            }
        }
    }
}
