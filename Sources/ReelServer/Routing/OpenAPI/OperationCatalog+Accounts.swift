import Foundation

/// The documentation of the account, library and post-editing routes of the catalog API
/// (docs/catalog-api.md).
extension OperationCatalog {
    static func accountDoc(method: String, path: String) -> OperationDoc? {
        switch "\(method) \(path)" {
        case "PUT /api/v1/me/password":
            Doc(requestBody: Doc.jsonBody("PasswordChangeRequest"),
                responses: ["204": Doc.empty("changed; every other session of this user is signed out")], errors: [403, 413])
        case "GET /api/v1/me/keys": Doc(responses: ["200": Doc.json(Schema.ref("KeyList"), "keys that are not revoked, oldest first")])
        case "POST /api/v1/me/keys":
            Doc(requestBody: Doc.jsonBody("KeyCreateRequest"), responses: ["201": Doc.json(Schema.ref("CreatedKey"), "the key and, this once, its secret", links: [
                "RevokeKey": Doc.link(OpenAPIDocument.operationID("DELETE", "/api/v1/me/keys/{id}"), ["id": "$response.body#/key/id"]),
            ])], errors: [413])
        case "DELETE /api/v1/me/keys/{id}": Doc(responses: ["204": Doc.empty("revoked (another user's key is a 404)")])
        case "PUT /api/v1/videos/{id}":
            Doc(requestBody: Doc.jsonBody("VideoEditRequest"), responses: ["200": Doc.json(Schema.ref("VideoDetail"), "the post as edited")], errors: [403, 413])
        case "DELETE /api/v1/videos/{id}":
            Doc(responses: ["204": Doc.empty("the post, its media, its unshared source and everyone's state of it are gone")], errors: [403])
        case "GET /api/v1/libraries":
            Doc(responses: ["200": Doc.json(Schema.ref("LibraryList"), "the libraries this user may see (owners: every one, with members)")])
        case "POST /api/v1/libraries":
            Doc(requestBody: Doc.jsonBody("LibraryCreateRequest"), responses: ["201": Doc.json(Schema.ref("Library"), "the new library")], errors: [409, 413])
        case "PUT /api/v1/libraries/{id}":
            Doc(requestBody: Doc.jsonBody("LibraryUpdateRequest"), responses: ["200": Doc.json(Schema.ref("Library"), "the library afterwards")], errors: [409, 413])
        default: nil
        }
    }

    /// `library={id}` of every listing.
    static var library: JSONObject {
        Doc.query("library", Schema.id, "only this library (default: every library granted to this user); one not granted is a 404")
    }
}

extension WireSchemas {
    static var accounts: [String: JSONObject] {
        let key = Schema.object(
            ["id": Schema.id, "name": Schema.string(), "prefix": Schema.string(description: "the key's first characters, to tell keys apart"),
             "created_at": Schema.dateTime, "last_used_at": Schema.nullable(Schema.dateTime)],
            required: ["id", "name", "prefix", "created_at", "last_used_at"]
        )
        var detail = video
        var properties = detail["properties"] as! JSONObject
        properties["title"] = Schema.string(description: "the first line of the description, else the shortcode, else the folder name")
        properties["library_id"] = Schema.id
        properties["collections"] = Schema.array(Schema.object(["id": Schema.id, "name": Schema.string()], required: ["id", "name"]))
        detail["properties"] = properties
        detail["required"] = (detail["required"] as! [String]) + ["title", "library_id", "collections"]
        detail["description"] = "A post with what its detail sheet shows besides the feed item"
        return [
            "Key": key,
            "KeyList": Schema.object(["keys": Schema.array(Schema.ref("Key"))], required: ["keys"]),
            "CreatedKey": Schema.object(
                ["key": Schema.ref("Key"), "secret": Schema.string(description: "rh_…; shown only in this answer")], required: ["key", "secret"]
            ),
            "VideoDetail": detail,
            "Library": Schema.object(
                ["id": Schema.id, "name": Schema.string(), "post_count": Schema.integer(minimum: 0, description: "ready posts"),
                 "members": Schema.array(Schema.id),
                 "keep_archived_stories": Schema.boolean],
                required: ["id", "name", "post_count", "keep_archived_stories"],
                description: "members (the ids of the users granted it) only in owners' answers"
            ),
            "LibraryList": Schema.object(["libraries": Schema.array(Schema.ref("Library"))], required: ["libraries"]),
        ]
    }
}

extension RequestSchemas {
    static var accounts: [String: JSONObject] {
        let line = "^[^\\n\\r\\u000B\\u000C\\u0085\\u2028\\u2029]*\\S[^\\n\\r\\u000B\\u000C\\u0085\\u2028\\u2029]*$"
        var name = Schema.string(minLength: 1, maxLength: 64, description: "one line; surrounding spaces are trimmed")
        name["pattern"] = line
        var tag = tagName
        tag["pattern"] = "^[^,\\n\\r\\u000B\\u000C\\u0085\\u2028\\u2029]*[^,\\s][^,\\n\\r\\u000B\\u000C\\u0085\\u2028\\u2029]*$"
        return [
            "PasswordChangeRequest": Schema.request(
                ["current_password": Schema.string(minLength: 1, maxLength: 1024), "new_password": Schema.string(minLength: 8, maxLength: 1024)],
                required: ["current_password", "new_password"]
            ),
            "KeyCreateRequest": Schema.request(["name": name], required: ["name"]),
            "VideoEditRequest": Schema.request(
                ["description": Schema.nullable(Schema.string(maxLength: 5000, description: "null leaves it; empty clears it")),
                 "tags": Schema.nullable(Schema.array(tag, maxItems: 50))],
                required: []
            ),
            "LibraryCreateRequest": Schema.request(["name": name], required: ["name"]),
            "LibraryUpdateRequest": Schema.request(
                ["name": Schema.nullable(name), "members": Schema.nullable(Schema.array(Schema.id, maxItems: 1000)),
                 "keep_archived_stories": Schema.nullable(["type": "boolean", "description": "archived stories filed into it never expire"])],
                required: []
            ),
        ]
    }
}
