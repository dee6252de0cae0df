import Foundation
import ReelModels

/// Turns stored posts into wire `APIVideo`s with signed media URLs.
///
/// Media URLs carry a token naming their viewer: `MediaViewer.current`, which
/// `MediaViewerMiddleware` sets for the request's whole task, so every route that presents a
/// post issues URLs to whoever asked without each handler passing it along.
public struct VideoPresenter: Sendable {
    public let tokens: MediaTokenSigner
    public let images: ImageURLSigner
    /// Written where the token goes instead of one (`templating()`): the feed's encoded items
    /// are kept with this in place of the token and joined with each viewer's own. Random per
    /// process, so no post's text can contain it.
    static let tokenPlaceholder = "~" + Credentials.newSessionToken() + "~"
    private var tokenOverride: String?

    /// This presenter writing `tokenPlaceholder` for every media token.
    func templating() -> VideoPresenter {
        var copy = self
        copy.tokenOverride = Self.tokenPlaceholder
        return copy
    }

    public init(tokens: MediaTokenSigner, images: ImageURLSigner) {
        self.tokens = tokens
        self.images = images
    }

    public func present(
        _ post: Post, viewer: ViewerState, tags: [APITagRef], flags: [APITagRef], now: Date
    ) -> APIVideo {
        let media = post.media
        return APIVideo(
            id: post.id, folderName: post.folderName, isFavorited: viewer.isFavorited, rating: viewer.rating,
            description: post.metadata.description, tags: tags, flags: flags, shortcode: post.metadata.shortcode,
            datePosted: post.metadata.datePosted, uploader: post.metadata.uploader, username: post.metadata.username,
            dateAdded: Self.iso8601(post.dateAdded), kind: post.kind, sourceUrl: post.metadata.sourceURL,
            duration: media?.duration, width: media?.width ?? 0, height: media?.height ?? 0,
            position: viewer.position, media: mediaURLs(for: post, now: now), captions: Self.captions(of: media)
        )
    }

    /// Nil for none, so the item's JSON stays what it was for posts without subtitles.
    static func captions(of media: PublishedMedia?) -> [APICaption]? {
        guard let tracks = media?.subtitles, !tracks.isEmpty else { return nil }
        return tracks.map { APICaption(language: $0.language, name: $0.name) }
    }

    public func mediaURLs(for post: Post, now: Date) -> APIMedia {
        guard let media = post.media else {
            return APIMedia(master: nil, encrypted: false, poster: nil, thumbnail: nil, download: nil, prefetch: nil, images: [], expiresAt: nil)
        }
        let expiry = tokens.expiry(now: now)
        let token = tokenOverride ?? tokens.token(postID: post.id, viewer: MediaViewer.current, expiry: expiry)
        let base = "/media/\(token)/\(post.id)"
        let prefetch = media.renditions.first.flatMap { rung -> APIPrefetch? in
            guard let first = rung.segments.first else { return nil }
            return APIPrefetch(
                rendition: rung.name, playlist: "\(base)/\(rung.playlist)", initSegment: "\(base)/\(rung.initSegment)",
                firstSegment: "\(base)/\(first)", key: media.encrypted ? "\(base)/key" : nil
            )
        }
        let hasVideo = media.masterPlaylist != nil
        return APIMedia(
            master: media.masterPlaylist.map { "\(base)/\($0)" },
            encrypted: media.encrypted,
            poster: media.poster.map { image(post.id, $0) },
            thumbnail: media.thumbnail.map { image(post.id, $0) },
            download: media.download.map { "\(base)/\($0)" },
            prefetch: prefetch,
            images: media.images.map { $0.variants.map { image(post.id, $0) } },
            expiresAt: hasVideo ? expiry : nil
        )
    }

    /// `/img/{signature}/{post id}/{content hash}/{file}`: permanent and cacheable forever.
    public func image(_ postID: Int64, _ file: ImageFile) -> APIImage {
        let signature = images.signature(postID: postID, contentHash: file.contentHash)
        return APIImage(url: "/img/\(signature)/\(postID)/\(file.contentHash)/\(file.path)", width: file.width, height: file.height)
    }

    static func iso8601(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
