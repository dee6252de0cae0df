import Foundation

/// What a story item shows: a photo for a fixed time, or a video for its own length.
public enum APIStoryKind: String, Codable, Sendable, CaseIterable {
    case photo
    case video
}

/// One person in the tray (`GET /api/v1/stories`). Order: people with an unseen item first,
/// then newest item first.
public struct APIStoryTrayEntry: Codable, Sendable, Equatable {
    /// The person's name: a server username, or an archived / outside account's name.
    public var user: String
    /// The viewer's own stories.
    public var isMe: Bool
    /// Live items (not expired) the viewer may see.
    public var itemsCount: Int
    /// Index of the first item the viewer has not seen (0 when all are seen).
    public var firstUnseen: Int
    /// The ring is grey: every live item has been seen by the viewer.
    public var allSeen: Bool
    /// ISO 8601 time of the newest live item.
    public var latestAt: String
    /// A small round picture for the ring: the newest item's thumbnail.
    public var avatar: APIImage?

    enum CodingKeys: String, CodingKey {
        case user
        case isMe = "is_me"
        case itemsCount = "items_count"
        case firstUnseen = "first_unseen"
        case allSeen = "all_seen"
        case latestAt = "latest_at"
        case avatar
    }

    public init(user: String, isMe: Bool, itemsCount: Int, firstUnseen: Int, allSeen: Bool, latestAt: String, avatar: APIImage?) {
        self.user = user
        self.isMe = isMe
        self.itemsCount = itemsCount
        self.firstUnseen = firstUnseen
        self.allSeen = allSeen
        self.latestAt = latestAt
        self.avatar = avatar
    }
}

/// `GET /api/v1/stories` → `{"tray":[…],"next_cursor":…}`.
public struct APIStoryTray: Codable, Sendable, Equatable {
    public var tray: [APIStoryTrayEntry]
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case tray
        case nextCursor = "next_cursor"
    }

    public init(tray: [APIStoryTrayEntry], nextCursor: String?) {
        self.tray = tray
        self.nextCursor = nextCursor
    }

    /// `next_cursor` is always present on the wire (null at the end).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tray, forKey: .tray)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}

/// Credit for an item from an outside catalogue (Pexels asks for it).
public struct APIAttribution: Codable, Sendable, Equatable {
    /// e.g. "Pexels".
    public var source: String
    /// The photographer or videographer.
    public var author: String?
    public var authorUrl: String?
    /// The item's page at the source.
    public var url: String?

    enum CodingKeys: String, CodingKey {
        case source
        case author
        case authorUrl = "author_url"
        case url
    }

    public init(source: String, author: String?, authorUrl: String?, url: String?) {
        self.source = source
        self.author = author
        self.authorUrl = authorUrl
        self.url = url
    }
}

/// One story item, with what a player needs to start it without another request.
public struct APIStoryItem: Codable, Sendable, Equatable, Identifiable {
    /// The item's id (its post's id).
    public var id: Int64
    public var kind: APIStoryKind
    public var seen: Bool
    public var liked: Bool
    /// ISO 8601.
    public var postedAt: String
    /// ISO 8601; nil when it never expires.
    public var expiresAt: String?
    /// Seconds it stays on screen: a photo's configured time, a video's own length.
    public var duration: Double
    public var width: Int
    public var height: Int
    /// Signed URLs as feed items have them (`master`, `poster`, `prefetch`, `images`…).
    public var media: APIMedia
    public var caption: String?
    /// Which 60 s part of a longer video this is (0-based) and of how many.
    public var part: Int
    public var parts: Int
    public var attribution: APIAttribution?
    /// Owner only (omitted for everyone else): how many viewers saw it and liked it.
    public var viewCount: Int?
    public var likeCount: Int?
    /// Owner only: kept as a post (stays after expiry and shows in the library).
    public var kept: Bool?

    enum CodingKeys: String, CodingKey {
        case id
        case kind
        case seen
        case liked
        case postedAt = "posted_at"
        case expiresAt = "expires_at"
        case duration
        case width
        case height
        case media
        case caption
        case part
        case parts
        case attribution
        case viewCount = "view_count"
        case likeCount = "like_count"
        case kept
    }

    public init(
        id: Int64, kind: APIStoryKind, seen: Bool, liked: Bool, postedAt: String, expiresAt: String?, duration: Double,
        width: Int, height: Int, media: APIMedia, caption: String? = nil, part: Int = 0, parts: Int = 1,
        attribution: APIAttribution? = nil, viewCount: Int? = nil, likeCount: Int? = nil, kept: Bool? = nil
    ) {
        self.id = id
        self.kind = kind
        self.seen = seen
        self.liked = liked
        self.postedAt = postedAt
        self.expiresAt = expiresAt
        self.duration = duration
        self.width = width
        self.height = height
        self.media = media
        self.caption = caption
        self.part = part
        self.parts = parts
        self.attribution = attribution
        self.viewCount = viewCount
        self.likeCount = likeCount
        self.kept = kept
    }
}

/// `GET /api/v1/stories/{username}` → `{"user":…,"items":[…]}`: that person's live items,
/// oldest first (the order they play in).
public struct APIStoryUserPage: Codable, Sendable, Equatable {
    public var user: String
    public var isMe: Bool
    public var firstUnseen: Int
    public var items: [APIStoryItem]

    enum CodingKeys: String, CodingKey {
        case user
        case isMe = "is_me"
        case firstUnseen = "first_unseen"
        case items
    }

    public init(user: String, isMe: Bool, firstUnseen: Int, items: [APIStoryItem]) {
        self.user = user
        self.isMe = isMe
        self.firstUnseen = firstUnseen
        self.items = items
    }
}

/// `POST /api/v1/stories/seen` body: `{"items":[ids]}` (at most 500).
public struct APIStorySeenRequest: Codable, Sendable, Equatable {
    public var items: [Int64]

    public init(items: [Int64]) { self.items = items }
}

/// `POST /api/v1/stories/seen` answer: how many ids were story items the viewer may see
/// (seen before or now: the call is idempotent), and how many were not (deleted, expired
/// out of reach, or never a story): those are skipped, so an offline replay never fails.
public struct APIStorySeenResponse: Codable, Sendable, Equatable {
    public var accepted: Int
    public var ignored: Int

    public init(accepted: Int, ignored: Int) {
        self.accepted = accepted
        self.ignored = ignored
    }
}

/// `POST`/`DELETE /api/v1/stories/items/{id}/like` answer.
public struct APIStoryLike: Codable, Sendable, Equatable {
    public var id: Int64
    public var liked: Bool

    public init(id: Int64, liked: Bool) {
        self.id = id
        self.liked = liked
    }
}

/// One viewer of an owner's item.
public struct APIStoryViewer: Codable, Sendable, Equatable {
    public var user: String
    /// ISO 8601.
    public var seenAt: String
    public var liked: Bool

    enum CodingKeys: String, CodingKey {
        case user
        case seenAt = "seen_at"
        case liked
    }

    public init(user: String, seenAt: String, liked: Bool) {
        self.user = user
        self.seenAt = seenAt
        self.liked = liked
    }
}

/// `GET /api/v1/stories/items/{id}/viewers` → newest first, cursor-paged.
public struct APIStoryViewers: Codable, Sendable, Equatable {
    public var viewers: [APIStoryViewer]
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case viewers
        case nextCursor = "next_cursor"
    }

    public init(viewers: [APIStoryViewer], nextCursor: String?) {
        self.viewers = viewers
        self.nextCursor = nextCursor
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(viewers, forKey: .viewers)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}

/// `GET /api/v1/stories/archive` → the viewer's own items, live and expired, newest first.
public struct APIStoryArchive: Codable, Sendable, Equatable {
    public var items: [APIStoryItem]
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case items
        case nextCursor = "next_cursor"
    }

    public init(items: [APIStoryItem], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}

/// Names `GET /api/v1/stories/{username}` cannot reach, because fixed routes beside it
/// (`/stories/archive`, `/stories/seen`, `/stories/items/…`) take them: refused as user names.
public enum StoryRouteNames {
    public static let reserved: Set<String> = ["archive", "seen", "items"]
}
