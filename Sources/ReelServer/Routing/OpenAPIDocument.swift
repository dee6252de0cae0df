import Foundation

/// The OpenAPI 3.1 document, generated from the same route list the router is built from, so
/// the two cannot drift apart (a test also checks every documented route against the router).
enum OpenAPIDocument {
    static func json(for routes: [RouteSpec]) throws -> Data {
        var paths: [String: [String: Any]] = [:]
        for route in routes {
            var operation: [String: Any] = [
                "summary": route.summary,
                "tags": [route.tag],
                "operationId": operationID(route),
                "responses": responses(route),
                "x-access": route.access.rawValue,
            ]
            let parameters = pathParameters(route.path)
            if !parameters.isEmpty { operation["parameters"] = parameters }
            switch route.access {
            case .user, .owner: operation["security"] = [["apiKey": []], ["bearer": []], ["session": []]]
            case .public, .mediaToken, .compat: operation["security"] = []
            }
            paths[route.path, default: [:]][route.method.lowercased()] = operation
        }
        let document: [String: Any] = [
            "openapi": "3.1.0",
            "info": ["title": "Reelhouse API", "version": "1.0.0", "description": "Self-hosted short-form video server."],
            "paths": paths,
            "components": [
                "securitySchemes": [
                    "apiKey": ["type": "apiKey", "in": "header", "name": "api-key"],
                    "bearer": ["type": "http", "scheme": "bearer"],
                    "session": ["type": "apiKey", "in": "cookie", "name": "reelhouse_session"],
                ],
                "schemas": [
                    "Error": [
                        "type": "object", "required": ["error"],
                        "properties": ["error": ["type": "object", "required": ["code", "message"],
                                                 "properties": ["code": ["type": "string"], "message": ["type": "string"]]]],
                    ],
                ],
            ],
        ]
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    static func operationID(_ route: RouteSpec) -> String {
        let words = route.path.split(separator: "/").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "{}+")) }
        return ([route.method.lowercased()] + words).joined(separator: "_").replacingOccurrences(of: ".", with: "_")
    }

    static func pathParameters(_ path: String) -> [[String: Any]] {
        path.split(separator: "/").compactMap { part in
            guard part.hasPrefix("{"), part.hasSuffix("}") else { return nil }
            let name = part.dropFirst().dropLast().replacingOccurrences(of: "+", with: "")
            return ["name": name, "in": "path", "required": true, "schema": ["type": "string"]]
        }
    }

    static func responses(_ route: RouteSpec) -> [String: Any] {
        let error: [String: Any] = ["description": "error", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]]]
        var responses: [String: Any] = ["200": ["description": "success"], "400": error, "404": error]
        switch route.access {
        case .user, .owner: responses["401"] = error; responses["429"] = error
        case .mediaToken: responses["403"] = error; responses["410"] = error
        case .public, .compat: break
        }
        return responses
    }
}
