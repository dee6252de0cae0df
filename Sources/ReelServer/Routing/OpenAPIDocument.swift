import Foundation

/// The OpenAPI 3.1 document, generated from the same route list the router is built from, so
/// the two cannot drift apart (a test also checks every documented route against the router).
/// Per-route detail (parameters, bodies, responses, links) comes with the route's registration
/// or from `OperationCatalog`, the wire types' schemas from `WireSchemas`.
enum OpenAPIDocument {
    static func json(for registry: RouteRegistry) throws -> Data {
        try JSONSerialization.data(withJSONObject: document(for: registry), options: [.sortedKeys, .withoutEscapingSlashes])
    }

    static func document(for registry: RouteRegistry) -> JSONObject {
        var paths: [String: JSONObject] = [:]
        let routes = registry.routes
        let served = Set(routes.map { operationID($0.method, $0.path) })
        for route in routes {
            paths[documentedPath(route.path), default: [:]][route.method.lowercased()] = operation(route, doc: registry.doc(for: route), served: served)
        }
        return [
            "openapi": "3.1.0",
            "info": ["title": "Reelhouse API", "version": "1.0.0", "description": description],
            "paths": paths,
            "components": [
                "securitySchemes": [
                    "apiKey": ["type": "apiKey", "in": "header", "name": "api-key", "description": "an API key (`reelhouse key create`)"],
                    "bearer": ["type": "http", "scheme": "bearer", "description": "the same API key as a Bearer token"],
                    "session": ["type": "apiKey", "in": "cookie", "name": Credentials.sessionCookie, "description": "set by POST /api/v1/session"],
                ],
                "schemas": WireSchemas.all,
            ],
        ]
    }

    static let description = """
        Self-hosted short-form video server. JSON with snake_case keys; every error is \
        {"error":{"code","message"}}. Signed-in routes take an api-key header, a Bearer token or the \
        session cookie. Media routes (x-access: mediaToken) take no credentials: the capability is the \
        signed token or signature in their path, found in a post's media URLs. Seed 000's HLS routes \
        (x-access: compat) are served without credentials by design.
        """

    /// `served`: the operation ids of the routes this server registered; a link to any other
    /// (seed 000's, with compatRoutes off) would make the document invalid, so it is left out.
    static func operation(_ route: RouteSpec, doc: OperationDoc?, served: Set<String>) -> JSONObject {
        var operation: JSONObject = [
            "summary": route.summary,
            "tags": [route.tag],
            "operationId": operationID(route.method, route.path),
            "x-access": route.access.rawValue,
        ]
        let parameters = pathParameters(route.path, overrides: doc?.pathSchemas ?? [:]) + (doc?.parameters ?? [])
        if !parameters.isEmpty { operation["parameters"] = parameters }
        if let body = doc?.requestBody { operation["requestBody"] = body }
        switch route.access {
        case .user, .owner: operation["security"] = [["apiKey": []], ["bearer": []], ["session": []]]
        case .public, .mediaToken, .compat: operation["security"] = []
        }
        var responses = (doc?.responses ?? ["200": ["description": "success"]]).mapValues { response -> JSONObject in
            guard let links = response["links"] as? JSONObject else { return response }
            var response = response
            response["links"] = links.filter { (($0.value as? JSONObject)?["operationId"] as? String).map(served.contains) ?? true }
            return response
        }
        for status in errorStatuses(route, extra: doc?.errors ?? []) {
            responses[String(status)] = errorResponse
        }
        operation["responses"] = responses
        return operation
    }

    static var errorResponse: JSONObject {
        ["description": "an error", "content": ["application/json": ["schema": Schema.ref("Error")]]]
    }

    /// The error statuses of a route: those its access level implies plus its own.
    static func errorStatuses(_ route: RouteSpec, extra: [Int]) -> [Int] {
        var statuses: Set<Int> = [400, 404, 500]
        switch route.access {
        case .user: statuses.formUnion([401, 429])
        case .owner: statuses.formUnion([401, 403, 429])
        case .mediaToken: statuses.formUnion([403, 410])
        case .public, .compat: break
        }
        // Every route but the liveness check may find its database down (503, Retry-After).
        if route.path != "/health" { statuses.insert(503) }
        // A write signed in by cookie from another site (403), or with a body of no JSON type (415).
        if [.user, .owner].contains(route.access), !["GET", "HEAD"].contains(route.method) { statuses.formUnion([403, 415]) }
        if route.method == "POST", route.path == "/api/v1/session" { statuses.insert(429) }
        return statuses.union(extra).sorted()
    }

    /// The path as OpenAPI spells it: a catch-all `{file+}` is the parameter `{file}`.
    static func documentedPath(_ path: String) -> String {
        path.replacingOccurrences(of: "+}", with: "}")
    }

    static func operationID(_ method: String, _ path: String) -> String {
        let words = path.split(separator: "/").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "{}+")) }
        return ([method.lowercased()] + words).joined(separator: "_").replacingOccurrences(of: ".", with: "_")
    }

    static func pathParameters(_ path: String, overrides: [String: JSONObject]) -> [JSONObject] {
        path.split(separator: "/").compactMap { part in
            guard part.hasPrefix("{"), part.hasSuffix("}") else { return nil }
            let name = part.dropFirst().dropLast().replacingOccurrences(of: "+", with: "")
            return ["name": name, "in": "path", "required": true, "schema": overrides[name] ?? pathSchema(name)]
        }
    }

    /// What a path parameter is, by its name, unless the route says otherwise.
    static func pathSchema(_ name: String) -> JSONObject {
        switch name {
        case "id": Schema.id
        case "folder":
            ["type": "string", "pattern": "^[a-z0-9-]{1,80}$", "description": "a post's folder_name"]
        default: Schema.string()
        }
    }
}
