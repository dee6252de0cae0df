import Foundation
import ReelModels
import ReelStore

/// The checks a signed media request passes before any of its bytes are served, in the order
/// the media routes have always applied them: a plain post id, a genuine and unexpired token
/// (or a genuine image signature), a post that is ready (or a story), and a name that is
/// exactly one the post lists. Shared by `MediaController`, which then serves the file, and
/// the edge's `MediaAuthController`, which names the file for nginx: one set of rules, so the
/// edge cannot accept what the API refuses.
struct MediaRequestCheck: Sendable {
    let library: any LibraryStore
    let tokens: MediaTokenSigner
    let images: ImageURLSigner
    let access: MediaAccess
    let posts: ReadyPostCache<Int64>
    let now: @Sendable () -> Date

    /// The refusals a client sees for a bad capability (the edge answers them with the same words).
    static let expiredToken = APIError.gone("this media link has expired; fetch the video again for a fresh one")
    static let forgedToken = APIError.forbidden("this media link is not valid for this post")
    static let forgedImage = APIError.forbidden("this image link is not valid")
    static let revokedToken = APIError.forbidden("this media link no longer works for you; fetch the video again")

    /// What an accepted request asks for.
    enum Target: Sendable, Equatable {
        /// A name the post lists (`720p/seg_00000.m4s`, `poster.jpg`), byte for byte.
        case file(String)
        /// The AES-128 key of an encrypted post (`…/key`).
        case key
    }

    struct Allowed: Sendable {
        let entry: ReadyPostCache<Int64>.Entry
        let target: Target
        /// The token's last valid second (seconds since 1970); nil for an image signature,
        /// which never expires.
        let expiry: Int64?
        /// The strong validator the URL itself pins (an image's content hash), if any.
        let etag: String?
    }

    /// `/media/{token}/{id}/{name}`: `name` is the raw, undecoded rest of the path.
    func media(token: String, id: String?, name: String?) async throws -> Allowed {
        guard let postID = MediaName.postID(id) else { throw APIError.notFound("media") }
        let verified: MediaTokenSigner.Verified
        switch tokens.check(token, postID: postID, now: now()) {
        case .success(let genuine): verified = genuine
        case .failure(.expired): throw Self.expiredToken
        case .failure(.malformed), .failure(.badSignature): throw Self.forgedToken
        }
        guard let name, name.utf8.count <= MediaName.maxLength else { throw APIError.notFound("media") }
        guard let entry = try await readyPost(postID) else { throw APIError.notFound("post") }
        // Revocation: the viewer the token names may still see this post's library, with the
        // same role, password and grants as when it was issued (see `MediaAccess`).
        if let viewer = verified.viewer, try await !access.allows(viewer, libraryID: entry.post.libraryID, now: now()) {
            throw Self.revokedToken
        }
        let expiry = verified.expiry
        if name == "key" {
            guard entry.media.encrypted else { throw APIError.notFound("key") }
            return Allowed(entry: entry, target: .key, expiry: expiry, etag: nil)
        }
        guard entry.files.contains(name) else { throw APIError.notFound("media") }
        return Allowed(entry: entry, target: .file(name), expiry: expiry, etag: nil)
    }

    /// `/img/{sig}/{id}/{hash}/{file}`.
    func image(signature: String, id: String?, hash: String?, file: String?) async throws -> Allowed {
        guard let postID = MediaName.postID(id), let hash, !hash.isEmpty, hash.utf8.count <= 64, let file else {
            throw APIError.notFound("image")
        }
        guard signature.utf8.count <= 64, images.verify(signature, postID: postID, contentHash: hash) else {
            throw Self.forgedImage
        }
        guard let entry = try await readyPost(postID) else { throw APIError.notFound("post") }
        let media = entry.media
        let candidates = [media.poster, media.thumbnail].compactMap { $0 } + media.images.flatMap(\.variants)
        guard let match = candidates.first(where: { $0.contentHash == hash && $0.path == file }), entry.files.contains(match.path) else {
            throw APIError.notFound("image")
        }
        return Allowed(entry: entry, target: .file(match.path), expiry: nil, etag: "\"\(hash)\"")
    }

    func readyPost(_ id: Int64) async throws -> ReadyPostCache<Int64>.Entry? {
        try await posts.entry(for: id, now: now()) { try await library.post(id: id) }
    }
}
