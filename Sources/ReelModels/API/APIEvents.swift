import Foundation

// Wire types of For You (issue 16): watch events, history, "not interested" and hidden
// uploaders, feed modes and reasons. The contract is docs/recommendations-api.md.

/// What a client saw a person do with a post. The raw values are the wire names; `code` is the
/// compact stored form (never renumber: stored rows keep it).
public enum EventType: String, Codable, Sendable, CaseIterable {
    case impression
    case view
    case skip
    case like
    case unlike
    case favorite
    case unfavorite
    case rating
    case download
    case share
    case notInterested = "not_interested"
    case hideUploader = "hide_uploader"

    public var code: Int {
        switch self {
        case .impression: 1
        case .view: 2
        case .skip: 3
        case .like: 4
        case .unlike: 5
        case .favorite: 6
        case .unfavorite: 7
        case .rating: 8
        case .download: 9
        case .share: 10
        case .notInterested: 11
        case .hideUploader: 12
        }
    }

    public init?(code: Int) {
        guard let type = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = type
    }
}

/// `POST /api/v1/events` body: at most `maxCount` events.
public struct APIEventBatch: Codable, Sendable, Equatable {
    public static let maxCount = 500
    public var events: [WatchEvent]

    public init(events: [WatchEvent]) {
        self.events = events
    }
}

/// `POST /api/v1/events` answer: new events stored, and resent ones (same `event_id`) ignored.
public struct APIEventReceipt: Codable, Sendable, Equatable {
    public var accepted: Int
    public var duplicates: Int

    public init(accepted: Int, duplicates: Int) {
        self.accepted = accepted
        self.duplicates = duplicates
    }
}

/// Which order `GET /api/v1/feed` serves.
public enum FeedMode: String, Codable, Sendable, CaseIterable {
    case forYou = "for_you"
    case shuffle
    case latest
}

/// Why For You chose an item (`reason_kind` on the wire; `reason` is the sentence shown).
public enum ReasonKind: String, Codable, Sendable, CaseIterable {
    /// A neighbour of a post the person liked, favorited or rated well.
    case liked
    /// A neighbour of a post the person watched to the end (a long view).
    case watched
    /// A tag the person watches.
    case tag
    /// An uploader the person watches.
    case uploader
    case popular
    case new
    case explore
}

/// One row of `GET /api/v1/me/history`: a post the person watched, newest first.
public struct APIHistoryEntry: Codable, Sendable, Equatable {
    public var postID: Int64
    /// ISO 8601: the last event about this post (not a mere impression).
    public var watchedAt: String
    public var views: Int
    public var longViews: Int
    public var skips: Int
    public var watchedMs: Int
    /// The post as the feed presents it; nil when it is no longer visible (deleted, hidden).
    public var video: APIVideo?

    enum CodingKeys: String, CodingKey {
        case postID = "post_id"
        case watchedAt = "watched_at"
        case views
        case longViews = "long_views"
        case skips
        case watchedMs = "watched_ms"
        case video
    }

    public init(postID: Int64, watchedAt: String, views: Int, longViews: Int, skips: Int, watchedMs: Int, video: APIVideo?) {
        self.postID = postID
        self.watchedAt = watchedAt
        self.views = views
        self.longViews = longViews
        self.skips = skips
        self.watchedMs = watchedMs
        self.video = video
    }
}

public struct APIHistoryPage: Codable, Sendable, Equatable {
    public var items: [APIHistoryEntry]
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case items
        case nextCursor = "next_cursor"
    }

    public init(items: [APIHistoryEntry], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

/// One row of `GET /api/v1/me/not-interested`.
public struct APINotInterestedEntry: Codable, Sendable, Equatable {
    public var postID: Int64
    public var at: String
    public var video: APIVideo?

    enum CodingKeys: String, CodingKey {
        case postID = "post_id"
        case at
        case video
    }

    public init(postID: Int64, at: String, video: APIVideo?) {
        self.postID = postID
        self.at = at
        self.video = video
    }
}

public struct APINotInterestedPage: Codable, Sendable, Equatable {
    public var items: [APINotInterestedEntry]
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case items
        case nextCursor = "next_cursor"
    }

    public init(items: [APINotInterestedEntry], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

/// One row of `GET /api/v1/me/hidden-uploaders`.
public struct APIHiddenUploader: Codable, Sendable, Equatable {
    /// As the posts show it (the post's `uploader`, else its `username`).
    public var uploader: String
    public var at: String

    public init(uploader: String, at: String) {
        self.uploader = uploader
        self.at = at
    }
}

public struct APIHiddenUploaders: Codable, Sendable, Equatable {
    public var uploaders: [APIHiddenUploader]

    public init(uploaders: [APIHiddenUploader]) {
        self.uploaders = uploaders
    }
}
