import Foundation

/// What the OpenAPI document says about one route beyond its `RouteSpec`: query and header
/// parameters, the request body, the success responses (with links for stateful clients) and
/// the error statuses particular to it. The statuses every route of an access level can
/// answer (401 and 429 for signed-in routes, 403/410 for signed media…) are added by
/// `OpenAPIDocument`, so a route lists only its own.
struct OperationDoc {
    var parameters: [JSONObject] = []
    /// Schemas of path parameters whose type is not the default for their name (see `OpenAPIDocument.pathSchema`).
    var pathSchemas: [String: JSONObject] = [:]
    var requestBody: JSONObject?
    /// Success (and other non-error) responses by status.
    var responses: [String: JSONObject]
    /// Error statuses this route answers besides those of its access level.
    var errors: [Int] = []

    /// A route that takes a JSON body states it; `nil` means the route reads no body.
    static func jsonBody(_ schema: String, required: Bool = true) -> JSONObject {
        ["required": required, "content": ["application/json": ["schema": Schema.ref(schema)]]]
    }

    static func json(_ schema: JSONObject, _ description: String, links: [String: JSONObject]? = nil, headers: [String: JSONObject]? = nil) -> JSONObject {
        var response: JSONObject = ["description": description, "content": ["application/json": ["schema": schema]]]
        if let links { response["links"] = links }
        if let headers { response["headers"] = headers }
        return response
    }

    static func empty(_ description: String, headers: [String: JSONObject]? = nil, links: [String: JSONObject]? = nil) -> JSONObject {
        var response: JSONObject = ["description": description]
        if let headers { response["headers"] = headers }
        if let links { response["links"] = links }
        return response
    }

    /// File bytes in one of `types` (playlists, segments, images…).
    static func bytes(_ types: [String], _ description: String, headers: [String: JSONObject]? = nil) -> JSONObject {
        var content: JSONObject = [:]
        for type in types { content[type] = ["schema": Schema.binary] }
        var response: JSONObject = ["description": description, "content": content]
        if let headers { response["headers"] = headers }
        return response
    }

    static func query(_ name: String, _ schema: JSONObject, _ description: String) -> JSONObject {
        ["name": name, "in": "query", "required": false, "schema": schema, "description": description]
    }

    static func header(_ name: String, _ schema: JSONObject, required: Bool = false, _ description: String) -> JSONObject {
        ["name": name, "in": "header", "required": required, "schema": schema, "description": description]
    }

    static func headerDoc(_ schema: JSONObject, _ description: String) -> JSONObject {
        ["schema": schema, "description": description]
    }

    /// An OpenAPI link to `operationId`, passing values from this response as its parameters.
    static func link(_ operationID: String, _ parameters: [String: String]) -> JSONObject {
        ["operationId": operationID, "parameters": parameters]
    }
}
