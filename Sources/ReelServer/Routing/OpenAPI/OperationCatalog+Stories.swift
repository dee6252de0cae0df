import Foundation
import ReelModels

/// The stories' routes (issue 15, docs/stories-api.md).
extension OperationCatalog {
    static func storyDoc(method: String, path: String) -> OperationDoc? {
        let item = { (description: String) in Doc.json(Schema.ref("StoryItem"), description, links: storyItemLinks) }
        switch "\(method) \(path)" {
        case "GET /api/v1/stories":
            return Doc(parameters: [cursor, storyLimit], responses: ["200": Doc.json(Schema.ref("StoryTray"), "a page of the tray", links: [
                "GetFirstPersonStories": Doc.link(OpenAPIDocument.operationID("GET", "/api/v1/stories/{username}"), ["username": "$response.body#/tray/0/user"]),
            ])])
        case "GET /api/v1/stories/{username}":
            return Doc(pathSchemas: ["username": Schema.string(minLength: 1, maxLength: StoriesController.maxNameLength, description: "the tray's user, ignoring case")],
                       responses: ["200": Doc.json(Schema.ref("StoryUserPage"), "their live items, oldest first (none live or none visible: 404)")])
        case "POST /api/v1/stories/seen":
            return Doc(requestBody: Doc.jsonBody("StorySeenRequest"),
                       responses: ["200": Doc.json(Schema.ref("StorySeenResponse"), "how many ids were live items this user may see, and how many were skipped")],
                       errors: [413])
        case "POST /api/v1/stories/items/{id}/like", "DELETE /api/v1/stories/items/{id}/like":
            return Doc(responses: ["200": Doc.json(Schema.ref("StoryLike"), "this user's like afterwards")])
        case "GET /api/v1/stories/items/{id}/viewers":
            return Doc(parameters: [cursor, storyLimit],
                       responses: ["200": Doc.json(Schema.ref("StoryViewers"), "who saw it, newest first, the poster left out")], errors: [403])
        case "POST /api/v1/stories/items/{id}/keep":
            return Doc(responses: ["200": item("the item, kept as a post")], errors: [403])
        case "DELETE /api/v1/stories/items/{id}":
            return Doc(responses: ["204": Doc.empty("the item, its post and its media are gone")], errors: [403])
        case "GET /api/v1/stories/archive":
            return Doc(parameters: [cursor, storyLimit], responses: ["200": Doc.json(Schema.ref("StoryArchive"), "this user's own items, live and expired, newest first")])
        default: return nil
        }
    }

    static var storyLimit: JSONObject {
        Doc.query("limit", Schema.integer(minimum: 1, maximum: StoriesController.maxLimit), "page size (default \(StoriesController.defaultLimit))")
    }

    static var storyItemLinks: [String: JSONObject] {
        ["LikeStoryItem": Doc.link(OpenAPIDocument.operationID("POST", "/api/v1/stories/items/{id}/like"), ["id": "$response.body#/id"]),
         "GetStoryItemViewers": Doc.link(OpenAPIDocument.operationID("GET", "/api/v1/stories/items/{id}/viewers"), ["id": "$response.body#/id"])]
    }
}

/// `components.schemas` of the stories' wire types (`APIStories.swift`).
enum StorySchemas {
    static var all: [String: JSONObject] {
        let nextCursor = Schema.nullable(Schema.string(description: "opaque; pass it back as cursor; null on the last page"))
        let count = Schema.integer(minimum: 0)
        return [
            "StoryTrayEntry": Schema.object(
                ["user": Schema.string(), "is_me": Schema.boolean, "items_count": Schema.integer(minimum: 1),
                 "first_unseen": Schema.integer(minimum: 0, description: "index of the first unseen item (0 when all are seen)"),
                 "all_seen": Schema.boolean, "latest_at": Schema.dateTime,
                 "avatar": Schema.ref("Image")],
                required: ["user", "is_me", "items_count", "first_unseen", "all_seen", "latest_at"],
                description: "One person of the tray; avatar (the newest item's thumbnail) only when there is one"
            ),
            "StoryTray": Schema.object(["tray": Schema.array(Schema.ref("StoryTrayEntry")), "next_cursor": nextCursor], required: ["tray", "next_cursor"]),
            "Attribution": Schema.object(
                ["source": Schema.string(description: "e.g. Pexels"), "author": Schema.string(), "author_url": Schema.string(), "url": Schema.string()],
                required: ["source"]
            ),
            "StoryItem": Schema.object(
                ["id": Schema.id, "kind": Schema.oneOf(APIStoryKind.allCases.map(\.rawValue)), "seen": Schema.boolean, "liked": Schema.boolean,
                 "posted_at": Schema.dateTime, "expires_at": Schema.dateTime,
                 "duration": Schema.number(minimum: 0, description: "seconds on screen: a photo's configured time, a video's length"),
                 "width": count, "height": count, "media": Schema.ref("Media"), "caption": Schema.string(),
                 "part": Schema.integer(minimum: 0), "parts": Schema.integer(minimum: 1), "attribution": Schema.ref("Attribution"),
                 "view_count": count, "like_count": count, "kept": Schema.boolean],
                required: ["id", "kind", "seen", "liked", "posted_at", "duration", "width", "height", "media", "part", "parts"],
                description: "expires_at absent: never expires; view_count, like_count and kept only for its poster"
            ),
            "StoryUserPage": Schema.object(
                ["user": Schema.string(), "is_me": Schema.boolean, "first_unseen": Schema.integer(minimum: 0), "items": Schema.array(Schema.ref("StoryItem"))],
                required: ["user", "is_me", "first_unseen", "items"]
            ),
            "StorySeenResponse": Schema.object(["accepted": count, "ignored": count], required: ["accepted", "ignored"]),
            "StoryLike": Schema.object(["id": Schema.id, "liked": Schema.boolean], required: ["id", "liked"]),
            "StoryViewer": Schema.object(["user": Schema.string(), "seen_at": Schema.dateTime, "liked": Schema.boolean], required: ["user", "seen_at", "liked"]),
            "StoryViewers": Schema.object(["viewers": Schema.array(Schema.ref("StoryViewer")), "next_cursor": nextCursor], required: ["viewers", "next_cursor"]),
            "StoryArchive": Schema.object(["items": Schema.array(Schema.ref("StoryItem")), "next_cursor": nextCursor], required: ["items", "next_cursor"]),
            "StorySeenRequest": Schema.request(
                ["items": Schema.array(Schema.id, minItems: 1, maxItems: StoriesController.maxSeenBatch)], required: ["items"]
            ),
        ]
    }
}
