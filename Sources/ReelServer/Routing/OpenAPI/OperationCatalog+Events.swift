import Foundation
import ReelModels

/// Watch events and Profile's lists (issue 16, docs/recommendations-api.md).
extension OperationCatalog {
    static func eventDoc(method: String, path: String) -> OperationDoc? {
        let postID = ["post_id": Schema.id]
        switch "\(method) \(path)" {
        case "POST /api/v1/events":
            return Doc(
                // The same JSON is accepted under any content type (sendBeacon sends a string as text/plain).
                requestBody: Doc.jsonBody("EventBatch"),
                responses: ["200": Doc.json(Schema.ref("EventReceipt"), "the batch is stored; resent event ids are counted as duplicates and stored once")],
                errors: [413]
            )
        case "GET /api/v1/me/history":
            return Doc(parameters: [cursor, historyLimit], responses: ["200": Doc.json(Schema.ref("HistoryPage"), "watched posts, newest first", links: [
                "ForgetFirstHistoryPost": Doc.link(OpenAPIDocument.operationID("DELETE", "/api/v1/me/history/{post_id}"), ["post_id": "$response.body#/items/0/post_id"]),
            ])])
        case "DELETE /api/v1/me/history":
            return Doc(responses: ["204": Doc.empty("events, signals and affinities forgotten (the hidden lists stay)")])
        case "DELETE /api/v1/me/history/{post_id}":
            return Doc(pathSchemas: postID, responses: ["204": Doc.empty("the post's events and signals forgotten (not in the history: 404)")])
        case "GET /api/v1/me/not-interested":
            return Doc(parameters: [cursor, historyLimit], responses: ["200": Doc.json(Schema.ref("NotInterestedPage"), "posts marked not interested, newest first", links: [
                "UndoFirstNotInterested": Doc.link(OpenAPIDocument.operationID("DELETE", "/api/v1/me/not-interested/{post_id}"), ["post_id": "$response.body#/items/0/post_id"]),
            ])])
        case "DELETE /api/v1/me/not-interested/{post_id}":
            return Doc(pathSchemas: postID, responses: ["204": Doc.empty("the post may be served again (not in the list: 404)")])
        case "GET /api/v1/me/hidden-uploaders":
            return Doc(responses: ["200": Doc.json(Schema.ref("HiddenUploaders"), "hidden uploaders, newest first", links: [
                "UnhideFirstUploader": Doc.link(OpenAPIDocument.operationID("DELETE", "/api/v1/me/hidden-uploaders/{uploader}"), ["uploader": "$response.body#/uploaders/0/uploader"]),
            ])])
        case "DELETE /api/v1/me/hidden-uploaders/{uploader}":
            return Doc(
                pathSchemas: ["uploader": Schema.string(minLength: 1, maxLength: HistoryController.maxUploaderLength, description: "the name as listed, ignoring case")],
                responses: ["204": Doc.empty("the uploader's posts may be served again (not hidden: 404)")]
            )
        default:
            return nil
        }
    }

    static var historyLimit: JSONObject {
        Doc.query("limit", Schema.integer(minimum: 1, maximum: HistoryController.maxLimit), "page size (default \(HistoryController.defaultLimit))")
    }
}

/// `components.schemas` of the event and Profile list wire types (`APIEvents.swift`).
enum EventSchemas {
    static var all: [String: JSONObject] {
        let count = Schema.integer(minimum: 0)
        let milliseconds = WatchEvent.maxMilliseconds
        let nextCursor = Schema.string(description: "opaque; pass it back as cursor; absent on the last page")
        let video = Schema.ref("Video")
        return [
            "Event": Schema.request(
                ["event_id": Schema.string(format: "uuid", description: "made by the client; a resent event with the same id counts once"),
                 "type": Schema.oneOf(EventType.allCases.map(\.rawValue)),
                 "post_id": Schema.id,
                 "at": Schema.string(format: "date-time", description: "ISO 8601; at most 5 minutes ahead, not older than the retention"),
                 "watched_ms": Schema.integer(minimum: 0, maximum: milliseconds, description: "view (every loop counted) and skip (at most 2000)"),
                 "duration_ms": Schema.integer(minimum: 1, maximum: milliseconds, description: "view"),
                 "loops": Schema.integer(minimum: 0, maximum: WatchEvent.maxLoops, description: "view (default 0)"),
                 "value": Schema.integer(minimum: 0, maximum: 5, description: "rating (0 clears)")],
                required: ["event_id", "type", "post_id", "at"]
            ),
            "EventBatch": Schema.request(
                ["events": Schema.array(Schema.ref("Event"), maxItems: APIEventBatch.maxCount)], required: ["events"]
            ),
            "EventReceipt": Schema.object(["accepted": count, "duplicates": count], required: ["accepted", "duplicates"]),
            "HistoryEntry": Schema.object(
                ["post_id": Schema.id, "watched_at": Schema.dateTime, "views": count, "long_views": count, "skips": count,
                 "watched_ms": count, "video": video],
                required: ["post_id", "watched_at", "views", "long_views", "skips", "watched_ms"],
                description: "video only while the post is still visible to this user"
            ),
            "HistoryPage": Schema.object(["items": Schema.array(Schema.ref("HistoryEntry")), "next_cursor": nextCursor], required: ["items"]),
            "NotInterestedEntry": Schema.object(
                ["post_id": Schema.id, "at": Schema.dateTime, "video": video], required: ["post_id", "at"],
                description: "video only while the post is still visible to this user"
            ),
            "NotInterestedPage": Schema.object(["items": Schema.array(Schema.ref("NotInterestedEntry")), "next_cursor": nextCursor], required: ["items"]),
            "HiddenUploader": Schema.object(["uploader": Schema.string(), "at": Schema.dateTime], required: ["uploader", "at"]),
            "HiddenUploaders": Schema.object(["uploaders": Schema.array(Schema.ref("HiddenUploader"))], required: ["uploaders"]),
        ]
    }
}
