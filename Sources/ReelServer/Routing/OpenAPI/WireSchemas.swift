import Foundation
import ReelGeneration
import ReelModels
import ReelStore

/// `components.schemas`: the `ReelModels` wire types (`APIVideo`, `APIJob`, …) as JSON Schema.
/// Enumerations come from the Swift enums themselves; the key lists are checked against real
/// encodings of each type by `OpenAPISchemaTests` (an object here is closed, so an encoded key
/// missing from it, or a required key missing from an encoding, fails that test).
enum WireSchemas {
    static var all: [String: JSONObject] {
        var schemas: [String: JSONObject] = [
            "Error": Schema.object(
                ["error": Schema.object(["code": Schema.string(description: "machine-readable, e.g. not_found"),
                                         "message": Schema.string(description: "for people; never a path or an internal name")],
                                        required: ["code", "message"])],
                required: ["error"], description: "Every 4xx/5xx answer of the API"
            ),
            "Health": Schema.object(["status": Schema.oneOf(["ok"])], required: ["status"]),
            "Readiness": Schema.object(["status": Schema.oneOf(["ok", "unavailable"])], required: ["status"]),
            "User": Schema.object(
                ["id": Schema.id, "name": Schema.string(), "role": Schema.oneOf(UserRole.allCases.map(\.rawValue))],
                required: ["id", "name", "role"]
            ),
            "TagRef": Schema.object(["id": Schema.int64, "name": Schema.string()], required: ["id", "name"]),
            "Caption": Schema.object(
                ["language": Schema.string(description: "RFC 5646, the rendition's LANGUAGE"),
                 "name": Schema.string(description: "the rendition's NAME")],
                required: ["language", "name"], description: "a subtitle rendition of the master playlist"
            ),
            "Image": Schema.object(
                ["url": Schema.string(description: "signed, permanent /img/… path"), "width": Schema.integer(minimum: 0), "height": Schema.integer(minimum: 0)],
                required: ["url", "width", "height"]
            ),
            "Prefetch": Schema.object(
                ["rendition": Schema.string(), "playlist": Schema.string(), "init_segment": Schema.string(),
                 "first_segment": Schema.string(), "key": Schema.string()],
                required: ["rendition", "playlist", "init_segment", "first_segment"],
                description: "The lowest rung's first bytes, for a swipe that starts from memory"
            ),
            "Media": Schema.object(
                ["master": Schema.string(description: "signed /media/{token}/{id}/master.m3u8 (videos)"),
                 "encrypted": Schema.boolean, "poster": Schema.ref("Image"), "thumbnail": Schema.ref("Image"),
                 "download": Schema.string(description: "signed faststart MP4 (≤ 720p)"), "prefetch": Schema.ref("Prefetch"),
                 "images": Schema.array(Schema.array(Schema.ref("Image"))),
                 "expires_at": Schema.integer(description: "seconds since 1970 when the signed URLs expire; refetch the post after it")],
                required: ["encrypted", "images"]
            ),
            "Video": video,
            "FeedPage": Schema.object(
                ["items": Schema.array(Schema.ref("Video")), "next_cursor": Schema.string(description: "opaque; pass it back as cursor"),
                 "mode": Schema.oneOf(FeedMode.allCases.map(\.rawValue))],
                required: ["items"], description: "mode: GET /api/v1/feed only, the order this page was served in"
            ),
            "SearchPage": Schema.object(
                ["items": Schema.array(Schema.ref("Video")), "next_cursor": Schema.string(description: "opaque; pass it back as cursor"),
                 "terms": Schema.array(Schema.string(description: "a searched word, lowercase and without accents, for highlighting"))],
                required: ["items", "terms"]
            ),
            "RecentSearch": Schema.object(["query": Schema.string(), "searched_at": Schema.dateTime], required: ["query", "searched_at"]),
            "RecentSearches": Schema.object(["searches": Schema.array(Schema.ref("RecentSearch"))], required: ["searches"]),
            "ViewerState": Schema.object(
                ["id": Schema.id, "is_favorited": Schema.boolean, "rating": Schema.integer(minimum: 0, maximum: 5)],
                required: ["id", "is_favorited", "rating"]
            ),
            "TagCount": Schema.object(["id": Schema.int64, "name": Schema.string(), "count": Schema.integer(minimum: 0)], required: ["id", "name", "count"]),
            "Job": job,
            "Generation": generation,
            "GenerationProvider": Schema.object(
                ["id": Schema.string(), "name": Schema.string(), "local": Schema.boolean, "is_default": Schema.boolean,
                 "styles": Schema.array(Schema.oneOf(GenerationStyle.allCases.map(\.rawValue)))],
                required: ["id", "name", "local", "is_default", "styles"]
            ),
            "GenerationPublished": Schema.object(
                ["generation": Schema.ref("Generation"), "post_id": Schema.id, "job_ids": Schema.array(Schema.id)],
                required: ["generation", "post_id", "job_ids"]
            ),
        ]
        for item in ["TagCount", "Job", "Generation", "GenerationProvider"] {
            schemas[item + "List"] = Schema.object(
                ["items": Schema.array(Schema.ref(item)), "next_cursor": Schema.string()], required: ["items"]
            )
        }
        schemas.merge(accounts) { mine, _ in mine }
        schemas.merge(RequestSchemas.all) { mine, _ in mine }
        schemas.merge(RequestSchemas.accounts) { mine, _ in mine }
        schemas.merge(CatalogSchemas.all) { mine, _ in mine }
        schemas.merge(StorySchemas.all) { mine, _ in mine }
        schemas.merge(EventSchemas.all) { mine, _ in mine }
        return schemas
    }

    static var video: JSONObject {
        Schema.object(
            ["id": Schema.id, "folder_name": Schema.string(), "is_favorited": Schema.boolean, "rating": Schema.integer(minimum: 0, maximum: 5),
             "description": Schema.string(), "tags": Schema.array(Schema.ref("TagRef")), "flags": Schema.array(Schema.ref("TagRef")),
             "shortcode": Schema.string(), "date_posted": Schema.string(), "uploader": Schema.string(), "username": Schema.string(),
             "date_added": Schema.string(), "kind": Schema.oneOf(PostKind.allCases.map(\.rawValue)), "source_url": Schema.string(),
             "duration": Schema.number(minimum: 0), "width": Schema.integer(minimum: 0), "height": Schema.integer(minimum: 0),
             "position": Schema.number(minimum: 0, description: "seconds where this user stopped"), "media": Schema.ref("Media"),
             "captions": Schema.array(Schema.ref("Caption")),
             "reason": Schema.string(description: "For You only: why this item was chosen, as the info box shows it"),
             "reason_kind": Schema.oneOf(ReasonKind.allCases.map(\.rawValue))],
            required: ["id", "folder_name", "is_favorited", "rating", "tags", "flags", "kind", "width", "height", "media"],
            description: "A post; its first twelve fields are seed 000's Video model"
        )
    }

    static var job: JSONObject {
        Schema.object(
            ["id": Schema.id, "kind": Schema.oneOf(JobKind.allCases.map(\.rawValue)), "post_id": Schema.id,
             "generation_id": Schema.id, "upload_id": Schema.string(description: "the tus upload an upload_import job imports"),
             "state": Schema.oneOf(JobState.allCases.map(\.rawValue)), "progress": Schema.number(minimum: 0, maximum: 1),
             "attempts": Schema.integer(minimum: 0), "max_attempts": Schema.integer(minimum: 0),
             "last_error": Schema.string(description: "why it failed, in words a person understands"),
             "created_at": Schema.dateTime, "updated_at": Schema.dateTime, "started_at": Schema.dateTime,
             "eta_seconds": Schema.number(minimum: 0, description: "while running, from the progress rate")],
            required: ["id", "kind", "state", "progress", "attempts", "max_attempts", "created_at", "updated_at"]
        )
    }

    static var generation: JSONObject {
        Schema.object(
            ["id": Schema.id, "state": Schema.oneOf(GenerationState.allCases.map(\.rawValue)), "progress": Schema.number(minimum: 0, maximum: 1),
             "prompt": Schema.string(), "style": Schema.string(), "seconds": Schema.integer(minimum: 1), "width": Schema.integer(minimum: 1),
             "height": Schema.integer(minimum: 1), "provider": Schema.string(), "provider_name": Schema.string(),
             "failure_reason": Schema.string(), "preview_url": Schema.string(description: "private: only its creator can load it"),
             "post_id": Schema.id, "parent_id": Schema.id, "created_at": Schema.dateTime, "updated_at": Schema.dateTime],
            required: ["id", "state", "progress", "prompt", "style", "seconds", "width", "height", "provider", "provider_name",
                       "created_at", "updated_at"]
        )
    }
}

/// Request bodies (`APILoginRequest`, `APIRatingRequest`, …). Open objects: extra keys are
/// ignored. Bounds are the ones the handlers enforce, so a value the schema allows is accepted.
enum RequestSchemas {
    static var tagName: JSONObject { Schema.string(minLength: 1, maxLength: 64, description: "no commas or line breaks; surrounding spaces are trimmed") }

    static var all: [String: JSONObject] {
        // Non-blank, no comma, no line break (what `VideoController.validNames` accepts).
        var tag = tagName
        tag["pattern"] = "^[^,\\n\\r\\u000B\\u000C\\u0085\\u2028\\u2029]*[^,\\s][^,\\n\\r\\u000B\\u000C\\u0085\\u2028\\u2029]*$"
        var prompt = Schema.string(minLength: 1, maxLength: GenerationRequest.maxPromptLength)
        prompt["pattern"] = "\\S"
        return [
            "LoginRequest": Schema.request(
                ["username": Schema.string(minLength: 1, maxLength: 64), "password": Schema.string(minLength: 1, maxLength: 1024)],
                required: ["username", "password"]
            ),
            "RatingRequest": Schema.request(["rating": Schema.integer(minimum: 0, maximum: 5)], required: ["rating"]),
            "FavoriteRequest": Schema.request(["is_favorited": Schema.boolean], required: ["is_favorited"]),
            "PositionRequest": Schema.request(
                ["seconds": Schema.nullable(Schema.number(minimum: 0, description: "null clears the position"))], required: []
            ),
            "TagsRequest": Schema.request(["tags": Schema.array(tag, minItems: 1, maxItems: 50)], required: ["tags"]),
            "FlagRequest": Schema.request(["flag": tag], required: ["flag"]),
            "RecentSearchRequest": Schema.request(
                ["query": Schema.string(minLength: 1, maxLength: RecentSearchLimits.maxRecentSearchLength, description: "as typed; not blank")],
                required: ["query"]
            ),
            // Optional fields may also be null: the server reads null as "not given".
            "GenerationRequest": Schema.request(
                ["prompt": prompt,
                 "style": Schema.nullable(Schema.oneOf(GenerationStyle.allCases.map(\.rawValue))),
                 "seconds": ["type": ["integer", "null"], "enum": GenerationRequest.allowedSeconds.map { $0 as Any } + [NSNull()]],
                 "orientation": Schema.nullable(Schema.oneOf(["portrait", "landscape"])),
                 "provider": Schema.nullable(Schema.string(description: "an id from /api/v1/generations/providers; default the server's"))],
                required: ["prompt"]
            ),
            "GenerationPublishRequest": Schema.request(
                ["description": Schema.nullable(Schema.string(maxLength: 2000)), "tags": Schema.nullable(Schema.array(tag, maxItems: 50))], required: []
            ),
            "RegenerateRequest": Schema.request(
                ["prompt": Schema.nullable(prompt), "style": Schema.nullable(Schema.oneOf(GenerationStyle.allCases.map(\.rawValue)))],
                required: []
            ),
        ]
    }
}
