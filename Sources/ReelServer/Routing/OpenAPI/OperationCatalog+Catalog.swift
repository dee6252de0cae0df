import Foundation
import ReelModels
import ReelStore

/// The catalog's routes (issue 14): browse, Discover, shelves, collections.
extension OperationCatalog {
    static func catalogDoc(method: String, path: String) -> OperationDoc? {
        switch "\(method) \(path)" {
        case "GET /api/v1/browse": browse
        case "GET /api/v1/discover":
            Doc(responses: ["200": Doc.json(Schema.ref("Discover"), "the shelves that hold something, in order")])
        case "GET /api/v1/shelves/{id}":
            Doc(parameters: [catalogCursor, catalogLimit], pathSchemas: ["id": shelfID],
                responses: ["200": Doc.json(Schema.ref("Shelf"), "a page of the shelf", links: pageLinks)])
        case "GET /api/v1/collections":
            Doc(responses: ["200": Doc.json(Schema.ref("CollectionList"), "every collection, by name")])
        case "POST /api/v1/collections":
            Doc(requestBody: Doc.jsonBody("CollectionCreateRequest"),
                responses: ["201": Doc.json(Schema.ref("Collection"), "created", links: collectionLinks)], errors: [403, 409, 413])
        case "GET /api/v1/collections/{id}":
            Doc(parameters: [catalogCursor, catalogLimit],
                responses: ["200": Doc.json(Schema.ref("CollectionPage"), "the collection and a page of its posts in order", links: pageLinks)])
        case "PUT /api/v1/collections/{id}":
            Doc(requestBody: Doc.jsonBody("CollectionUpdateRequest"),
                responses: ["200": Doc.json(Schema.ref("Collection"), "the collection afterwards")], errors: [403, 409, 413])
        case "POST /api/v1/collections/{id}/items":
            Doc(requestBody: Doc.jsonBody("CollectionItemRequest"),
                responses: ["200": Doc.json(Schema.ref("Collection"), "the collection afterwards")], errors: [403, 413])
        case "DELETE /api/v1/collections/{id}/items/{post_id}":
            Doc(pathSchemas: ["post_id": Schema.id], responses: ["204": Doc.empty("not in the collection (any more)")], errors: [403])
        case "DELETE /api/v1/collections/{id}":
            Doc(responses: ["204": Doc.empty("deleted; its posts stay")], errors: [403])
        default: nil
        }
    }

    static var collectionLinks: [String: JSONObject] {
        ["GetCollection": Doc.link(OpenAPIDocument.operationID("GET", "/api/v1/collections/{id}"), ["id": "$response.body#/id"]),
         "UpdateCollection": Doc.link(OpenAPIDocument.operationID("PUT", "/api/v1/collections/{id}"), ["id": "$response.body#/id"]),
         "AddToCollection": Doc.link(OpenAPIDocument.operationID("POST", "/api/v1/collections/{id}/items"), ["id": "$response.body#/id"])]
    }

    static var catalogCursor: JSONObject { Doc.query("cursor", Schema.string(maxLength: 512), "next_cursor of the previous page of the same listing") }
    static var catalogLimit: JSONObject {
        Doc.query("limit", Schema.integer(minimum: 1, maximum: CatalogPaging.maxLimit), "page size (default \(CatalogPaging.defaultLimit))")
    }

    static var shelfID: JSONObject {
        var schema = Schema.string(description: "continue, new, top_rated, most_favorited, unseen, tag-{tag id} or collection-{collection id}")
        schema["pattern"] = "^(continue|new|top_rated|most_favorited|unseen|tag-[1-9][0-9]{0,17}|collection-[1-9][0-9]{0,17})$"
        return schema
    }

    static var browse: OperationDoc {
        let names = Schema.string(description: "comma-separated, at most \(BrowseParameters.maxListItems)")
        let kinds = PostKind.allCases.map(\.rawValue).joined(separator: "|")
        var kind = Schema.string(description: "comma-separated kinds")
        kind["pattern"] = "^((\(kinds))(,(\(kinds)))*)?$"
        return Doc(
            parameters: [
                Doc.query("sort", Schema.oneOf([""] + BrowseSort.allCases.map(\.rawValue)), """
                    title (default: A–Z ignoring a leading the/a/an, punctuation, case and accents, numbers by value), \
                    newest (date added), posted (date posted), duration, rating (this user's)
                    """),
                Doc.query("order", Schema.oneOf(["", "asc", "desc"]), "default: asc for title and duration, desc for the others; ties break on id"),
                Doc.query("tags", names, "only posts with any of these tags"),
                Doc.query("exclude_tags", names, "no posts with any of these tags"),
                Doc.query("uploader", names, "only posts whose uploader or username is any of these (ignoring case)"),
                Doc.query("kind", kind, "only these kinds of post"),
                Doc.query("min_duration", Schema.number(minimum: 0), "at least this many seconds (images count as 0)"),
                Doc.query("max_duration", Schema.number(minimum: 0), "at most this many seconds; not less than min_duration"),
                Doc.query("favorites", Schema.oneOf(["", "true", "false", "1", "0"]), "only this user's favorites"),
                Doc.query("min_rating", Schema.integer(minimum: 1, maximum: 5), "only posts this user rated at least this"),
                Doc.query("seen", Schema.oneOf(["", "true", "false", "1", "0"]), "only posts this user has (true) or has not (false) seen"),
                catalogCursor, catalogLimit,
            ],
            responses: ["200": Doc.json(Schema.ref("FeedPage"), "a page of posts in the order asked, as feed items", links: pageLinks)]
        )
    }
}

/// `components.schemas` of the catalog's wire types.
enum CatalogSchemas {
    static var all: [String: JSONObject] {
        [
            "ResumeRule": Schema.object(
                ["min_duration": Schema.number(minimum: 0, description: "seconds a post lasts at least to be resumed"),
                 "min_fraction": Schema.number(minimum: 0, maximum: 1), "max_fraction": Schema.number(minimum: 0, maximum: 1)],
                required: ["min_duration", "min_fraction", "max_fraction"],
                description: "A position is resumed (and listed under Continue watching) when duration ≥ min_duration and min_fraction ≤ position/duration ≤ max_fraction"
            ),
            "Me": Schema.object(
                ["id": Schema.id, "name": Schema.string(), "role": Schema.oneOf(UserRole.allCases.map(\.rawValue)), "resume": Schema.ref("ResumeRule")],
                required: ["id", "name", "role", "resume"]
            ),
            "Shelf": Schema.object(
                ["id": Schema.string(description: "what GET /api/v1/shelves/{id} takes"), "title": Schema.string(),
                 "kind": Schema.oneOf(["continue", "new", "top_rated", "most_favorited", "unseen", "tag", "collection"]),
                 "items": Schema.array(Schema.ref("Video")), "next_cursor": Schema.string(description: "opaque; pass it to the shelf's own route")],
                required: ["id", "title", "kind", "items"]
            ),
            "Discover": Schema.object(["shelves": Schema.array(Schema.ref("Shelf"))], required: ["shelves"]),
            "Collection": Schema.object(collectionFields, required: collectionRequired),
            "CollectionList": Schema.object(["collections": Schema.array(Schema.ref("Collection"))], required: ["collections"]),
            "CollectionPage": Schema.object(
                collectionFields.merging(["items": Schema.array(Schema.ref("Video")), "next_cursor": Schema.string(description: "opaque; pass it back as cursor")]) { a, _ in a },
                required: collectionRequired + ["items"]
            ),
            "CollectionCreateRequest": Schema.request(["name": collectionName, "post_ids": postIDs], required: ["name"]),
            "CollectionUpdateRequest": Schema.request(
                ["name": Schema.nullable(collectionName), "post_ids": Schema.nullable(postIDs)], required: []
            ),
            "CollectionItemRequest": Schema.request(["post_id": Schema.id], required: ["post_id"]),
        ]
    }

    static var collectionFields: [String: JSONObject] {
        ["id": Schema.id, "name": Schema.string(), "count": Schema.integer(minimum: 0, description: "ready posts in it"),
         "cover": ["oneOf": [Schema.ref("Image"), ["type": "null"]]], "created_at": Schema.dateTime, "updated_at": Schema.dateTime]
    }

    static var collectionRequired: [String] { ["id", "name", "count", "cover", "created_at", "updated_at"] }

    static var collectionName: JSONObject {
        var schema = Schema.string(minLength: 1, maxLength: PostCollection.maxNameLength, description: "unique ignoring case; surrounding spaces are trimmed")
        schema["pattern"] = "\\S"
        return schema
    }

    static var postIDs: JSONObject { Schema.array(Schema.id, maxItems: PostCollection.maxPostsPerChange) }
}
