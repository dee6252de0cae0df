import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ReelModels
import ReelStorage
import ReelStore

/// Signed media delivery:
///
/// - `GET|HEAD /media/{token}/{id}/{file+}` — a post's HLS playlists, init sections, segments,
///   download MP4 and the special name `key` (its AES-128 key), under a `MediaTokenSigner`
///   token in the path (403 forged or for another post, 410 expired).
/// - `GET|HEAD /img/{sig}/{id}/{hash}/{file}` — poster, thumbnail and image variants under a
///   permanent `ImageURLSigner` signature.
///
/// Path safety: the requested name is compared, byte for byte and undecoded, with the post's
/// stored `PublishedMedia.allFiles`; only an exact member is ever turned into a path, and that
/// path must still be a regular file inside the post's folder once symbolic links are resolved.
/// Everything else is a 404 that never touches the file system.
struct MediaController {
    let library: any LibraryStore
    let storage: any MediaStorage
    let tokens: MediaTokenSigner
    let images: ImageURLSigner
    let access: MediaAccess
    let now: @Sendable () -> Date
    /// Ready and story posts by id for a few seconds (see `ReadyPostCache`): a story's media
    /// plays through the same signed URLs as a feed item's.
    let posts = ReadyPostCache<Int64>(statuses: [.ready, .story])
    let responder = MediaFileResponder()

    /// Versioned media never changes under its URL: a new publish is a new post.
    static let immutable = "public, max-age=31536000, immutable"

    func register(_ routes: APIRoutes) {
        for method in [HTTPRequest.Method.get, .head] {
            routes.on(method, "/media/{token}/{id}/{file+}", access: .mediaToken, "A post's HLS playlist, segment, download or key, under a signed token") { request, context in
                try await media(request, context: context)
            }
            routes.on(method, "/img/{sig}/{id}/{hash}/{file}", access: .mediaToken, "A post's poster, thumbnail or image variant, under a permanent signature") { request, context in
                try await image(request, context: context)
            }
        }
    }

    /// The checks every request here passes first (shared with the edge's token check).
    var check: MediaRequestCheck {
        MediaRequestCheck(library: library, tokens: tokens, images: images, access: access, posts: posts, now: now)
    }

    // MARK: - /media

    func media(_ request: Request, context: AppRequestContext) async throws -> Response {
        let allowed = try await check.media(
            token: context.parameters.get("token") ?? "", id: context.parameters.get("id"), name: MediaName.catchAll(request, context: context)
        )
        switch allowed.target {
        case .key:
            guard let key = try await library.encryptionKey(postID: allowed.entry.post.id) else { throw APIError.notFound("key") }
            return MediaFileResponder.key(key, request: request)
        case .file(let name):
            var response = try await serveListed(name, of: allowed.entry, cacheControl: Self.immutable, request: request, context: context)
            if let disposition = DownloadName.contentDisposition(serving: name, of: allowed.entry) {
                response.headers[.contentDisposition] = disposition
            }
            return response
        }
    }

    // MARK: - /img

    func image(_ request: Request, context: AppRequestContext) async throws -> Response {
        let allowed = try await check.image(
            signature: context.parameters.get("sig") ?? "", id: context.parameters.get("id"), hash: context.parameters.get("hash"),
            file: context.parameters.get("file")
        )
        guard case .file(let name) = allowed.target else { throw APIError.notFound("image") }
        return try await serveListed(name, of: allowed.entry, cacheControl: Self.immutable, request: request, context: context, etagOverride: allowed.etag)
    }

    // MARK: - Shared

    /// Serves `name`, which the caller has checked is listed for `entry`'s post.
    func serveListed(
        _ name: String, of entry: ReadyPostCache<Int64>.Entry, cacheControl: String, request: Request,
        context: AppRequestContext, etagOverride: String? = nil
    ) async throws -> Response {
        try await Self.serve(
            name, post: entry.post, storage: storage, responder: responder, cacheControl: cacheControl, request: request,
            context: context, etagOverride: etagOverride
        )
    }

    /// Streams a listed file from the local folder, or fetches it from object storage (S3) when
    /// the storage has no local files: the same headers, ranges, ETag and 304 either way.
    static func serve(
        _ name: String, post: Post, storage: any MediaStorage, responder: MediaFileResponder, cacheControl: String,
        request: Request, context: AppRequestContext, etagOverride: String? = nil
    ) async throws -> Response {
        let contentType = MediaType.of(name)
        let postKey = String(post.id)
        // Object storage, and a plain GET (what an edge cache sends): one fetch gives the first
        // chunk (for most files all of it), size and ETag, with no look-up first. A missing or
        // empty file falls through to the look-up, which tells the two apart.
        if request.method == .get, request.headers[.range] == nil, request.headers[values: .ifNoneMatch].isEmpty,
           MediaName.isSafeRelativePath(name), storage.localFile(postKey: postKey, relativePath: name) == nil {
            let stream = responder.stream(postKey: postKey, name: name, storage: storage)
            if let first = try await stream.leadingChunk() {
                let etag = etagOverride ?? ETag.strong(ETag.parts(postID: post.id, contentHash: post.contentHash, name: name, stored: first.info))
                return responder.stored(leading: first, stream: stream, contentType: contentType, cacheControl: cacheControl, etag: etag)
            }
        }
        switch try await locate(name, postID: post.id, storage: storage, logger: context.logger) {
        case .local(let url, let facts):
            let etag = etagOverride ?? ETag.strong(ETag.parts(postID: post.id, contentHash: post.contentHash, name: name, facts: facts))
            return try await responder.file(
                url, facts: facts, contentType: contentType, cacheControl: cacheControl, etag: etag, request: request, context: context
            )
        case .stored(let info):
            let etag = etagOverride ?? ETag.strong(ETag.parts(postID: post.id, contentHash: post.contentHash, name: name, stored: info))
            return try await responder.stored(
                postKey: postKey, name: name, info: info, storage: storage, contentType: contentType, cacheControl: cacheControl,
                etag: etag, request: request
            )
        }
    }

    /// Where a listed file is: a local file (zero-copy) or an object in remote storage.
    enum Located {
        case local(URL, MediaFileResponder.FileFacts)
        case stored(StoredObjectInfo)
    }

    /// The file behind a *listed* name: a plausible relative path and, on local storage, a
    /// regular file (not a link) inside the post's folder; on object storage, an object of a
    /// published post. A listed name failing any of these means the media tree or the row is
    /// damaged: logged, and a 404 for the client.
    static func locate(_ name: String, postID: Int64, storage: any MediaStorage, logger: Logger) async throws -> Located {
        guard MediaName.isSafeRelativePath(name) else {
            logger.error("refusing a listed media name that is not a plain relative path", metadata: ["post": "\(postID)"])
            throw APIError.notFound("media")
        }
        guard let url = storage.localFile(postKey: String(postID), relativePath: name) else {
            guard let info = try await storage.objectInfo(postKey: String(postID), relativePath: name) else {
                logger.warning("a listed media object is missing from storage", metadata: ["post": "\(postID)", "file": "\(name)"])
                throw APIError.notFound("media")
            }
            return .stored(info)
        }
        let depth = name.split(separator: "/").count
        // `lstat` and the containment check touch the disk: off the cooperative pool.
        let facts = try await BlockingIO.run { () -> MediaFileResponder.FileFacts? in
            guard let facts = MediaFileResponder.facts(of: url), MediaName.isContained(url, depth: depth) else { return nil }
            return facts
        }
        guard let facts else {
            logger.warning("a listed media file is missing or not a regular file", metadata: ["post": "\(postID)", "file": "\(name)"])
            throw APIError.notFound("media")
        }
        return .local(url, facts)
    }
}
