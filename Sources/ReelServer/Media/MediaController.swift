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
        MediaRequestCheck(library: library, tokens: tokens, images: images, posts: posts, now: now)
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
            return try await serveListed(name, of: allowed.entry, cacheControl: Self.immutable, request: request, context: context)
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
        let file = try await Self.locate(name, postID: entry.post.id, storage: storage, logger: context.logger)
        let etag = etagOverride ?? ETag.strong(ETag.parts(postID: entry.post.id, contentHash: entry.post.contentHash, name: name, facts: file.facts))
        return try await responder.file(
            file.url, facts: file.facts, contentType: MediaMIME.type(for: name), cacheControl: cacheControl, etag: etag,
            request: request, context: context
        )
    }

    /// The file behind a *listed* name: a plausible relative path, on local storage, a regular
    /// file (not a link), inside the post's folder. A listed name failing any of these means the
    /// media tree or the row is damaged: logged, and a 404 for the client.
    static func locate(
        _ name: String, postID: Int64, storage: any MediaStorage, logger: Logger
    ) async throws -> (url: URL, facts: MediaFileResponder.FileFacts) {
        guard MediaName.isSafeRelativePath(name) else {
            logger.error("refusing a listed media name that is not a plain relative path", metadata: ["post": "\(postID)"])
            throw APIError.notFound("media")
        }
        guard let url = storage.localFile(postKey: String(postID), relativePath: name) else {
            throw APIError.notFound("media")
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
        return (url, facts)
    }
}
