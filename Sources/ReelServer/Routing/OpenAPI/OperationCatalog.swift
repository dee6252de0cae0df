import Foundation
import ReelModels
import ReelRank
import ReelStore

/// The documentation of the routes registered without their own `doc:`, keyed by
/// `"METHOD /path"`. A new route gives its `OperationDoc` where its feature registers it; one
/// documented in neither place fails `OpenAPISchemaTests`, so no route silently lacks schemas. Media, uploads and seed-000 routes are in
/// `OperationCatalog+Files.swift`.
enum OperationCatalog {
    typealias Doc = OperationDoc

    static func doc(method: String, path: String) -> OperationDoc? {
        switch "\(method) \(path)" {
        case "GET /health": Doc(responses: ["200": Doc.json(Schema.ref("Health"), "the server answers")])
        case "GET /ready":
            Doc(responses: ["200": Doc.json(Schema.ref("Readiness"), "this node can serve"),
                            "503": Doc.json(Schema.ref("Readiness"), "its database does not answer; try another node",
                                            headers: ["Retry-After": Doc.headerDoc(Schema.string(), "seconds")])])
        case "GET /openapi.json": Doc(responses: ["200": Doc.json(["type": "object"], "this document")])
        case "GET /metrics": Doc(responses: ["200": Doc.bytes(["text/plain"], "Prometheus text format 0.0.4")])
        case "POST /api/v1/session":
            Doc(requestBody: Doc.jsonBody("LoginRequest"),
                responses: ["200": Doc.json(Schema.ref("User"), "signed in; the session cookie is set",
                                            headers: ["Set-Cookie": Doc.headerDoc(Schema.string(), "reelhouse_session=…; HttpOnly; SameSite=Lax")])],
                errors: [401, 413, 429])
        case "DELETE /api/v1/session": Doc(responses: ["204": Doc.empty("signed out; the cookie is cleared")])
        case "GET /api/v1/me": Doc(responses: ["200": Doc.json(Schema.ref("Me"), "the signed-in user and the resume rule")])
        case "GET /api/v1/me/searches": Doc(responses: ["200": Doc.json(Schema.ref("RecentSearches"), "newest first, at most \(RecentSearchLimits.maxRecentSearches)")])
        case "POST /api/v1/me/searches":
            Doc(requestBody: Doc.jsonBody("RecentSearchRequest"), responses: ["204": Doc.empty("remembered; a repeat moves to the top")], errors: [413])
        case "DELETE /api/v1/me/searches": Doc(responses: ["204": Doc.empty("forgotten")])
        case "GET /api/v1/tags": Doc(responses: ["200": Doc.json(Schema.ref("TagCountList"), "tags with counts")])
        case "GET /api/v1/feed": feed
        case "GET /api/v1/search": search
        case "GET /api/v1/favorites":
            Doc(parameters: [cursor, limit, library], responses: ["200": Doc.json(Schema.ref("FeedPage"), "a page of favorites", links: pageLinks)])
        case "GET /api/feed/random": Doc(responses: ["200": Doc.json(Schema.array(Schema.ref("Video")), "a random batch (seed 000's shape)")])
        case "GET /bench/feed-order-by-random": Doc(parameters: [limit], responses: ["200": Doc.json(Schema.ref("FeedPage"), "a page")], errors: [403])
        case "GET /api/v1/videos/{id}": Doc(responses: ["200": video("the post with fresh signed media URLs", schema: "VideoDetail")])
        case "POST /api/v1/videos/{id}/favorite", "DELETE /api/v1/videos/{id}/favorite":
            Doc(responses: ["200": Doc.json(Schema.ref("ViewerState"), "this user's state of the post")])
        case "PUT /api/v1/videos/{id}/rating":
            Doc(requestBody: Doc.jsonBody("RatingRequest"), responses: ["200": Doc.json(Schema.ref("ViewerState"), "the new state")], errors: [413])
        case "PUT /api/v1/videos/{id}/position":
            Doc(requestBody: Doc.jsonBody("PositionRequest"), responses: ["204": Doc.empty("remembered")], errors: [413])
        case "POST /api/v1/videos/{id}/seen": Doc(responses: ["204": Doc.empty("marked as seen")])
        case "POST /api/v1/videos/{id}/tags": Doc(requestBody: Doc.jsonBody("TagsRequest"), responses: ["200": video("the post")], errors: [413])
        case "POST /api/v1/videos/{id}/flags": Doc(requestBody: Doc.jsonBody("FlagRequest"), responses: ["200": video("the post")], errors: [413])
        case "DELETE /api/v1/videos/{id}/tags/{tag}", "DELETE /api/v1/videos/{id}/flags/{flag}":
            Doc(pathSchemas: ["tag": RequestSchemas.tagName, "flag": RequestSchemas.tagName], responses: ["200": video("the post")])
        case "POST /api/videos/{folder}/favorite":
            Doc(requestBody: Doc.jsonBody("FavoriteRequest"), responses: ["200": Doc.json(Schema.ref("ViewerState"), "the new state")], errors: [413])
        case "POST /api/videos/{folder}/rating":
            Doc(requestBody: Doc.jsonBody("RatingRequest"), responses: ["200": Doc.json(Schema.ref("ViewerState"), "the new state")], errors: [413])
        case "GET /api/v1/jobs":
            Doc(parameters: [Doc.query("state", Schema.oneOf([""] + JobState.allCases.map(\.rawValue)), "only jobs in this state (empty: any)"),
                             Doc.query("kind", Schema.oneOf([""] + JobKind.allCases.map(\.rawValue)), jobKindDescription), limit],
                responses: ["200": Doc.json(Schema.ref("JobList"), "jobs, newest first", links: [
                    "GetFirstJob": Doc.link(OpenAPIDocument.operationID("GET", "/api/v1/jobs/{id}"), ["id": "$response.body#/items/0/id"]),
                ])], errors: [403])
        case "GET /api/v1/jobs/{id}": Doc(responses: ["200": Doc.json(Schema.ref("Job"), "the job", links: jobLinks)])
        case "GET /api/v1/jobs/{id}/events":
            Doc(responses: ["200": [
                "description": "`event: job` whose data is the Job as JSON, on every change, until it ends or the stream's lifetime passes",
                "content": ["text/event-stream": ["schema": Schema.request(
                    ["event": Schema.oneOf(["job"]), "data": ["type": "string", "contentMediaType": "application/json", "contentSchema": Schema.ref("Job")]],
                    required: ["data"]
                )]],
            ]])
        case "POST /api/v1/jobs/{id}/cancel", "POST /api/v1/jobs/{id}/retry":
            Doc(responses: ["200": Doc.json(Schema.ref("Job"), "the job afterwards")], errors: [403, 409])
        default: generationDoc(method: method, path: path) ?? accountDoc(method: method, path: path) ?? catalogDoc(method: method, path: path)
            ?? fileDoc(method: method, path: path) ?? storyDoc(method: method, path: path) ?? eventDoc(method: method, path: path)
        }
    }

    // MARK: - Shared pieces

    static var cursor: JSONObject { Doc.query("cursor", Schema.string(maxLength: 512), "next_cursor of the previous page") }
    static var limit: JSONObject { Doc.query("limit", Schema.integer(minimum: 1, maximum: FeedController.maxLimit), "page size (default \(FeedController.defaultLimit))") }

    static var feed: OperationDoc {
        let tags = Schema.string(description: "comma-separated tag names, at most 20")
        return Doc(
            parameters: [
                Doc.query("mode", Schema.oneOf([""] + FeedMode.allCases.map(\.rawValue)), """
                    for_you (ranked from what this user watched; items carry reason and reason_kind), shuffle (the endless \
                    no-repeat shuffle) or latest (newest first; ends). Empty: for_you once the user sent \(UserProfile.signalsForForYou) \
                    signals, else shuffle. A cursor belongs to its mode
                    """),
                cursor, limit,
                Doc.query("tags", tags, "only posts with any of these tags"),
                Doc.query("exclude_tags", tags, "no posts with any of these tags"),
                Doc.query("kind", Schema.oneOf([""] + PostKind.allCases.map(\.rawValue)), "only this kind of post (empty: any)"),
                Doc.query("favorites", Schema.oneOf(["", "true", "false", "1", "0"]), "only this user's favorites (empty: all posts)"),
                Doc.query("min_rating", Schema.integer(minimum: 0, maximum: 5), "only posts this user rated at least this"),
                library,
            ],
            responses: ["200": Doc.json(Schema.ref("FeedPage"), "a page of the feed in the mode it names; hidden posts and uploaders never appear", links: pageLinks)]
        )
    }

    static var search: OperationDoc {
        Doc(
            parameters: [
                Doc.query("q", Schema.string(description: "the search"), """
                    words (each must match in any field, ignoring case and accents: from three letters anywhere in a word, shorter ones a word's start), \
                    "quoted phrases", tag:name (has the tag), -tag:name (lacks it), @name (uploader or username). \
                    Anything else is taken as words; at most \(SearchQuery.maxTerms) terms count. Blank, or nothing \
                    to match: an empty page
                    """),
                Doc.query("cursor", Schema.string(maxLength: 512), "next_cursor of the previous page of the same q"),
                Doc.query("limit", Schema.integer(minimum: 1, maximum: SearchController.maxLimit), "page size (default \(SearchController.defaultLimit))"),
                library,
            ],
            responses: ["200": Doc.json(Schema.ref("SearchPage"), "the best matches first, as feed items, and the searched terms", links: pageLinks)]
        )
    }

    static var pageLinks: [String: JSONObject] {
        ["GetFirstVideo": Doc.link(OpenAPIDocument.operationID("GET", "/api/v1/videos/{id}"), ["id": "$response.body#/items/0/id"])]
    }

    /// The `kind` filter: people's work by default; the upkeep kinds only when named, by the owner.
    static var jobKindDescription: String {
        let upkeep = JobKind.allCases.filter(\.isMaintenance).map(\.rawValue).joined(separator: ", ")
        return "only jobs of this kind (empty: every kind of someone's work; the server's upkeep, \(upkeep), "
            + "is listed only when named, and only for the owner: 403 for anyone else)"
    }

    static var jobLinks: [String: JSONObject] {
        ["CancelJob": Doc.link(OpenAPIDocument.operationID("POST", "/api/v1/jobs/{id}/cancel"), ["id": "$response.body#/id"]),
         "RetryJob": Doc.link(OpenAPIDocument.operationID("POST", "/api/v1/jobs/{id}/retry"), ["id": "$response.body#/id"])]
    }

    static func video(_ description: String, schema: String = "Video") -> JSONObject {
        Doc.json(Schema.ref(schema), description, links: [
            "FavoriteVideo": Doc.link(OpenAPIDocument.operationID("POST", "/api/v1/videos/{id}/favorite"), ["id": "$response.body#/id"]),
            "RateVideo": Doc.link(OpenAPIDocument.operationID("PUT", "/api/v1/videos/{id}/rating"), ["id": "$response.body#/id"]),
            "TagVideo": Doc.link(OpenAPIDocument.operationID("POST", "/api/v1/videos/{id}/tags"), ["id": "$response.body#/id"]),
            // Seed 000's routes name the post by its folder.
            "GetCompatPlaylist": Doc.link(OpenAPIDocument.operationID("GET", "/videos/{folder}/index.m3u8"), ["folder": "$response.body#/folder_name"]),
            "GetCompatKey": Doc.link(OpenAPIDocument.operationID("GET", "/api/videos/{folder}/key"), ["folder": "$response.body#/folder_name"]),
            "FavoriteByFolder": Doc.link(OpenAPIDocument.operationID("POST", "/api/videos/{folder}/favorite"), ["folder": "$response.body#/folder_name"]),
            "RateByFolder": Doc.link(OpenAPIDocument.operationID("POST", "/api/videos/{folder}/rating"), ["folder": "$response.body#/folder_name"]),
        ])
    }

    // MARK: - Generations

    static func generationDoc(method: String, path: String) -> OperationDoc? {
        let generation = { (description: String) in Doc.json(Schema.ref("Generation"), description, links: generationLinks) }
        switch "\(method) \(path)" {
        case "GET /api/v1/generations/providers": return Doc(responses: ["200": Doc.json(Schema.ref("GenerationProviderList"), "providers")])
        case "POST /api/v1/generations":
            return Doc(requestBody: Doc.jsonBody("GenerationRequest"), responses: ["202": generation("queued")], errors: [413])
        case "GET /api/v1/generations": return Doc(responses: ["200": Doc.json(Schema.ref("GenerationList"), "this user's generations")])
        case "GET /api/v1/generations/{id}": return Doc(responses: ["200": generation("the generation")])
        case "GET /api/v1/generations/{id}/preview.mp4":
            return Doc(parameters: FileResponses.rangeHeaders, responses: FileResponses.success(["video/mp4"], "the private preview"), errors: [409, 416])
        case "POST /api/v1/generations/{id}/publish":
            return Doc(requestBody: Doc.jsonBody("GenerationPublishRequest"), responses: [
                "200": Doc.json(Schema.ref("GenerationPublished"), "a post is being made", links: [
                    "GetPublishedVideoJob": Doc.link(OpenAPIDocument.operationID("GET", "/api/v1/jobs/{id}"), ["id": "$response.body#/job_ids/0"]),
                ]),
            ], errors: [409, 413, 422])
        case "POST /api/v1/generations/{id}/discard": return Doc(responses: ["200": generation("discarded")], errors: [409])
        case "POST /api/v1/generations/{id}/regenerate":
            return Doc(requestBody: Doc.jsonBody("RegenerateRequest"), responses: ["202": generation("a new generation, linked by parent_id")], errors: [413])
        default: return nil
        }
    }

    static var generationLinks: [String: JSONObject] {
        var links: [String: JSONObject] = [:]
        for (name, method, path) in [("GetGeneration", "GET", "/api/v1/generations/{id}"), ("PublishGeneration", "POST", "/api/v1/generations/{id}/publish"),
                                     ("DiscardGeneration", "POST", "/api/v1/generations/{id}/discard"),
                                     ("RegenerateGeneration", "POST", "/api/v1/generations/{id}/regenerate"),
                                     ("GetGenerationPreview", "GET", "/api/v1/generations/{id}/preview.mp4")] {
            links[name] = Doc.link(OpenAPIDocument.operationID(method, path), ["id": "$response.body#/id"])
        }
        return links
    }
}
