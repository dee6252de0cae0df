import Foundation
import ReelStorage

/// Routes that move bytes rather than JSON: signed media, images, seed 000's HLS and key
/// routes, and tus uploads.
extension OperationCatalog {
    static func fileDoc(method: String, path: String) -> OperationDoc? {
        let token = "a signed token issued inside a post's media URLs (403 forged or for another post, 410 expired)"
        switch (method, path) {
        case (_, "/media/{token}/{id}/{file+}"):
            return Doc(
                parameters: FileResponses.rangeHeaders,
                pathSchemas: ["token": Schema.string(maxLength: 512, description: token),
                              "file": Schema.string(description: "a file listed for the post (may contain '/'), or `key`")],
                responses: FileResponses.success(FileResponses.mediaTypes, "the file (HEAD: its headers)"), errors: [416]
            )
        case (_, "/img/{sig}/{id}/{hash}/{file}"):
            return Doc(
                parameters: FileResponses.rangeHeaders,
                pathSchemas: ["sig": Schema.string(maxLength: 64, description: "a permanent image signature"),
                              "hash": Schema.string(maxLength: 64), "file": Schema.string()],
                responses: FileResponses.success(["image/jpeg", "image/webp", "image/png", "image/avif"], "the image"), errors: [416]
            )
        case (_, "/videos/{folder}/index.m3u8"):
            return Doc(parameters: FileResponses.rangeHeaders, responses: FileResponses.success([MediaType.playlist], "the master playlist"), errors: [416])
        case (_, "/videos/{folder}/{file+}"):
            return Doc(
                parameters: FileResponses.rangeHeaders, pathSchemas: ["file": Schema.string(description: "an HLS file of the post (may contain '/')")],
                responses: FileResponses.success([MediaType.playlist, "video/iso.segment", "video/mp4", "video/mp2t", "audio/mp4"], "the file"),
                errors: [416]
            )
        case (_, "/api/videos/{folder}/key"):
            return Doc(responses: ["200": Doc.bytes([MediaType.octetStream], "the 16-byte AES-128 key (HEAD: its headers)")])
        case ("GET", "/internal/media-auth"):
            return edgeCheckDoc
        default:
            return uploadDoc(method: method, path: path)
        }
    }

    /// The edge's `auth_request` check (see `MediaAuthController`).
    static var edgeCheckDoc: OperationDoc {
        let uri = Doc.header(
            "X-Original-URI", Schema.string(maxLength: OriginalMediaURI.maxLength), required: true,
            "the client's raw request URI, `/media/{token}/{id}/{file}` or `/img/{sig}/{id}/{hash}/{file}` (nginx: `$request_uri`)"
        )
        return Doc(
            parameters: [uri],
            responses: ["204": Doc.empty("allowed: nginx may serve the file (keys are never allowed here; nginx proxies them to the API)", headers: [
                "X-Reelhouse-Path": Doc.headerDoc(Schema.string(), "`{post key}/{listed name}`: the only path the edge opens or fetches"),
                "X-Reelhouse-Disposition": Doc.headerDoc(Schema.string(), "the download only: the `Content-Disposition` that names it after the post"),
                "Cache-Control": Doc.headerDoc(Schema.string(), "`max-age=` the token's remaining seconds (an image: an hour), how long the edge keeps this answer"),
            ])],
            errors: [403]
        )
    }

    // MARK: - tus

    static func uploadDoc(method: String, path: String) -> OperationDoc? {
        let tus = Doc.header("Tus-Resumable", Schema.oneOf([TusHeaders.version]), required: true, "the tus version this client speaks")
        let uploadID = ["id": Schema.string(minLength: 1, maxLength: 64, description: "the id at the end of the Location of POST /api/v1/uploads")]
        let offset = Doc.headerDoc(Schema.string(description: "bytes received so far"), "tus Upload-Offset")
        let length = Doc.headerDoc(Schema.string(), "tus Upload-Length")
        let count: JSONObject = ["type": "string", "pattern": "^[0-9]{1,18}$", "description": "a non-negative integer"]
        let checksum = Doc.header("Upload-Checksum", Schema.string(), "`sha1|sha256 <base64 digest>` of this request's bytes (read only when bytes come)")
        switch (method, path) {
        case ("OPTIONS", "/api/v1/uploads"):
            return Doc(responses: ["204": Doc.empty("tus discovery", headers: [
                "Tus-Version": Doc.headerDoc(Schema.string(), "1.0.0"), "Tus-Extension": Doc.headerDoc(Schema.string(), "supported extensions"),
                "Tus-Max-Size": Doc.headerDoc(Schema.string(), "largest upload in bytes"),
            ])])
        case ("POST", "/api/v1/uploads"):
            return Doc(
                parameters: [
                    tus,
                    Doc.header("Upload-Length", count, required: true, "the file's size in bytes"),
                    Doc.header("Upload-Metadata", Schema.string(maxLength: TusHeaders.maxMetadataBytes), "comma-separated `key base64(value)`: filename, filetype, description, tags, filter, library (an id granted to you; default your first library, else 404), story (1: post it as your story; 0 or absent: a post)"),
                    checksum,
                ],
                requestBody: ["required": false, "content": [TusHeaders.offsetContentType: ["schema": Schema.binary]]],
                responses: [
                    "201": Doc.empty("created (with creation-with-upload: and appended)", headers: [
                        "Location": Doc.headerDoc(Schema.string(), "/api/v1/uploads/{id}"), "Upload-Offset": offset,
                    ], links: uploadLinks),
                ],
                errors: [403, 409, 412, 413, 415, 422, 460]
            )
        case ("HEAD", "/api/v1/uploads/{id}"):
            return Doc(parameters: [tus], pathSchemas: uploadID,
                       responses: ["200": Doc.empty("progress", headers: ["Upload-Offset": offset, "Upload-Length": length])], errors: [410, 412])
        case ("PATCH", "/api/v1/uploads/{id}"):
            return Doc(
                parameters: [tus, Doc.header("Upload-Offset", count, required: true, "where these bytes go"),
                             checksum],
                pathSchemas: uploadID,
                requestBody: ["required": true, "content": [TusHeaders.offsetContentType: ["schema": Schema.binary]]],
                responses: ["204": Doc.empty("appended; the last byte also imports the file", headers: [
                    "Upload-Offset": offset, "Upload-Post-Id": Doc.headerDoc(Schema.string(), "the post, once complete"),
                    "Upload-Job-Id": Doc.headerDoc(Schema.string(), "its transcode job, once complete"),
                ])],
                errors: [409, 410, 412, 413, 415, 422, 423, 460]
            )
        case ("DELETE", "/api/v1/uploads/{id}"):
            return Doc(parameters: [tus], pathSchemas: uploadID, responses: ["204": Doc.empty("discarded")], errors: [410, 412, 423])
        default:
            return nil
        }
    }

    /// The upload's id is the last path segment of its Location (schemathesis reads it with
    /// its `#regex:` extension of runtime expressions).
    static var uploadLinks: [String: JSONObject] {
        let id = ["id": "$response.header.Location#regex:/api/v1/uploads/(.+)"]
        return ["HeadUpload": Doc.link(OpenAPIDocument.operationID("HEAD", "/api/v1/uploads/{id}"), id),
                "PatchUpload": Doc.link(OpenAPIDocument.operationID("PATCH", "/api/v1/uploads/{id}"), id),
                "DeleteUpload": Doc.link(OpenAPIDocument.operationID("DELETE", "/api/v1/uploads/{id}"), id)]
    }
}

/// The success side of a file route: full, partial and not-modified answers.
enum FileResponses {
    static let mediaTypes = [MediaType.playlist, "video/iso.segment", "video/mp4", "video/mp2t", "audio/mp4", "audio/aac", "text/vtt",
                             "image/jpeg", "image/webp", "image/png", MediaType.octetStream]

    static var rangeHeaders: [JSONObject] {
        // Any text: a Range the server cannot use is ignored (a full answer), as RFC 9110 says.
        [OperationDoc.header("Range", Schema.string(), "`bytes=first-last`, one range"),
         OperationDoc.header("If-None-Match", Schema.string(), "an ETag from an earlier answer")]
    }

    static func success(_ types: [String], _ description: String) -> [String: JSONObject] {
        ["200": OperationDoc.bytes(types, description, headers: ["ETag": OperationDoc.headerDoc(Schema.string(), "strong validator")]),
         "206": OperationDoc.bytes(types, "the requested range", headers: ["Content-Range": OperationDoc.headerDoc(Schema.string(), "bytes first-last/size")]),
         "304": OperationDoc.empty("unchanged since If-None-Match")]
    }
}
