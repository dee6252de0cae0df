import Foundation

/// A tag or flag on the wire: `{"id": Int, "name": String}`, the shape seed 000's client
/// decodes into its `Tag`/`Flag` types.
public struct APITagRef: Codable, Sendable, Equatable, Hashable {
    public var id: Int64
    public var name: String

    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// A post as every client receives it (feed items, `GET /api/v1/videos/{id}`, seed 000's
/// `/api/feed/random`). Its first twelve fields are exactly seed 000's `Video` model, names and
/// types, so that client decodes it unmodified; the rest is what a player needs to start
/// without another round trip. Encoded with snake_case keys.
public struct APIVideo: Codable, Sendable, Equatable, Identifiable {
    public var id: Int64
    public var folderName: String
    public var isFavorited: Bool
    public var rating: Int
    public var description: String?
    public var tags: [APITagRef]
    public var flags: [APITagRef]
    public var shortcode: String?
    public var datePosted: String?
    public var uploader: String?
    public var username: String?
    public var dateAdded: String?

    public var kind: PostKind
    public var sourceUrl: String?
    public var duration: Double?
    public var width: Int
    public var height: Int
    /// Seconds into the video where this user stopped, if they did.
    public var position: Double?
    public var media: APIMedia
    /// The subtitle languages the master playlist carries as renditions; nil (omitted on the
    /// wire) when there are none, so clients that predate captions see the item unchanged.
    public var captions: [APICaption]?
    /// For You only (docs/recommendations-api.md): why this item was chosen, as the sentence the
    /// info box shows ("because you liked …", "popular", "new", "explore") and as a kind. Nil
    /// (omitted) in every other listing.
    public var reason: String?
    public var reasonKind: ReasonKind?

    /// snake_case on the wire, spelled out so encoding needs no key conversion per request.
    enum CodingKeys: String, CodingKey {
        case id
        case folderName = "folder_name"
        case isFavorited = "is_favorited"
        case rating
        case description
        case tags
        case flags
        case shortcode
        case datePosted = "date_posted"
        case uploader
        case username
        case dateAdded = "date_added"
        case kind
        case sourceUrl = "source_url"
        case duration
        case width
        case height
        case position
        case media
        case captions
        case reason
        case reasonKind = "reason_kind"
    }

    public init(
        id: Int64, folderName: String, isFavorited: Bool, rating: Int, description: String?, tags: [APITagRef],
        flags: [APITagRef], shortcode: String?, datePosted: String?, uploader: String?, username: String?,
        dateAdded: String?, kind: PostKind, sourceUrl: String?, duration: Double?, width: Int, height: Int,
        position: Double?, media: APIMedia, captions: [APICaption]? = nil
    ) {
        self.captions = captions
        self.id = id
        self.folderName = folderName
        self.isFavorited = isFavorited
        self.rating = rating
        self.description = description
        self.tags = tags
        self.flags = flags
        self.shortcode = shortcode
        self.datePosted = datePosted
        self.uploader = uploader
        self.username = username
        self.dateAdded = dateAdded
        self.kind = kind
        self.sourceUrl = sourceUrl
        self.duration = duration
        self.width = width
        self.height = height
        self.position = position
        self.media = media
    }
}

/// One subtitle language of a video: `{"language":"en","name":"English"}`, the `LANGUAGE`
/// and `NAME` of its `#EXT-X-MEDIA:TYPE=SUBTITLES` rendition in the master playlist.
public struct APICaption: Codable, Sendable, Equatable, Hashable {
    public var language: String
    public var name: String

    public init(language: String, name: String) {
        self.language = language
        self.name = name
    }
}

/// Signed URLs for a post's media. Paths are absolute on the server (`/media/…`), so clients
/// resolve them against the base URL they already use.
public struct APIMedia: Codable, Sendable, Equatable {
    /// Signed HLS master playlist (videos only). Relative URIs inside it inherit the token.
    public var master: String?
    public var encrypted: Bool
    public var poster: APIImage?
    public var thumbnail: APIImage?
    /// Faststart MP4 (≤ 720p), signed like the playlist.
    public var download: String?
    /// The lowest rung's playlist, init section and first segment: what a client prefetches so
    /// that a swipe starts from memory.
    public var prefetch: APIPrefetch?
    /// Image posts: each image's variants, in carousel order.
    public var images: [[APIImage]]
    /// Expiry of the signed URLs above (seconds since 1970); refetch the item after it.
    public var expiresAt: Int64?

    /// snake_case on the wire, spelled out so encoding needs no key conversion per request.
    enum CodingKeys: String, CodingKey {
        case master
        case encrypted
        case poster
        case thumbnail
        case download
        case prefetch
        case images
        case expiresAt = "expires_at"
    }

    public init(
        master: String?, encrypted: Bool, poster: APIImage?, thumbnail: APIImage?, download: String?,
        prefetch: APIPrefetch?, images: [[APIImage]], expiresAt: Int64?
    ) {
        self.master = master
        self.encrypted = encrypted
        self.poster = poster
        self.thumbnail = thumbnail
        self.download = download
        self.prefetch = prefetch
        self.images = images
        self.expiresAt = expiresAt
    }
}

public struct APIImage: Codable, Sendable, Equatable {
    public var url: String
    public var width: Int
    public var height: Int

    public init(url: String, width: Int, height: Int) {
        self.url = url
        self.width = width
        self.height = height
    }
}

public struct APIPrefetch: Codable, Sendable, Equatable {
    public var rendition: String
    public var playlist: String
    public var initSegment: String
    public var firstSegment: String
    public var key: String?

    /// snake_case on the wire, spelled out so encoding needs no key conversion per request.
    enum CodingKeys: String, CodingKey {
        case rendition
        case playlist
        case initSegment = "init_segment"
        case firstSegment = "first_segment"
        case key
    }

    public init(rendition: String, playlist: String, initSegment: String, firstSegment: String, key: String?) {
        self.rendition = rendition
        self.playlist = playlist
        self.initSegment = initSegment
        self.firstSegment = firstSegment
        self.key = key
    }
}
