import Foundation
import ReelModels

/// One story item: its post, its filing, and what the asking viewer did with it.
public struct StoryItem: Sendable, Equatable, Identifiable {
    public var post: Post
    /// The tray's name for its poster, as filed.
    public var author: String
    /// The server user who posted it (the owner of its viewers, keep and delete).
    public var userID: Int64?
    public var postedAt: Date
    public var expiresAt: Date?
    public var archived: Bool
    public var kept: Bool
    /// Taken out of the tray by the expiry sweep.
    public var expired: Bool
    public var part: Int
    public var parts: Int
    /// The asking viewer has seen it / likes it.
    public var seen: Bool
    public var liked: Bool
    /// Viewers other than its poster who have seen it, and who like it.
    public var viewCount: Int
    public var likeCount: Int

    public var id: Int64 { post.id }

    public init(
        post: Post, author: String, userID: Int64?, postedAt: Date, expiresAt: Date?, archived: Bool, kept: Bool, expired: Bool,
        part: Int, parts: Int, seen: Bool, liked: Bool, viewCount: Int, likeCount: Int
    ) {
        self.post = post
        self.author = author
        self.userID = userID
        self.postedAt = postedAt
        self.expiresAt = expiresAt
        self.archived = archived
        self.kept = kept
        self.expired = expired
        self.part = part
        self.parts = parts
        self.seen = seen
        self.liked = liked
        self.viewCount = viewCount
        self.likeCount = likeCount
    }
}

/// One person in a viewer's tray: their live items the viewer may see, summed up.
public struct StoryTrayEntry: Sendable, Equatable {
    /// The name as the newest item spells it.
    public var author: String
    /// The name lowercased: what items are grouped by.
    public var authorKey: String
    public var itemsCount: Int
    /// Index (oldest first) of the first item the viewer has not seen; 0 when all are seen.
    public var firstUnseen: Int
    public var allSeen: Bool
    public var latestAt: Date
    /// The newest live item's post (its thumbnail is the ring's picture).
    public var newest: Post

    public init(author: String, authorKey: String, itemsCount: Int, firstUnseen: Int, allSeen: Bool, latestAt: Date, newest: Post) {
        self.author = author
        self.authorKey = authorKey
        self.itemsCount = itemsCount
        self.firstUnseen = firstUnseen
        self.allSeen = allSeen
        self.latestAt = latestAt
        self.newest = newest
    }
}

/// Where a tray page ends, in the tray's order (unseen first, newest first, then by name).
/// Keyset, so a person posting meanwhile never shifts later pages by one.
public struct StoryTrayCursor: Codable, Sendable, Equatable {
    public var allSeen: Bool
    /// Unix seconds of the last entry's newest item.
    public var latestAt: Double
    public var authorKey: String

    public init(allSeen: Bool, latestAt: Double, authorKey: String) {
        self.allSeen = allSeen
        self.latestAt = latestAt
        self.authorKey = authorKey
    }
}

/// Someone who saw an owner's item.
public struct StoryViewer: Sendable, Equatable {
    public var userID: Int64
    public var name: String
    public var seenAt: Date
    public var liked: Bool

    public init(userID: Int64, name: String, seenAt: Date, liked: Bool) {
        self.userID = userID
        self.name = name
        self.seenAt = seenAt
        self.liked = liked
    }
}

/// Where a viewers page ends: newest `seen_at` first, then by user id.
public struct StoryViewersCursor: Codable, Sendable, Equatable {
    public var seenAt: Double
    public var userID: Int64

    public init(seenAt: Double, userID: Int64) {
        self.seenAt = seenAt
        self.userID = userID
    }
}

/// Where an archive page ends: newest `posted_at` first, then by post id.
public struct StoryArchiveCursor: Codable, Sendable, Equatable {
    public var postedAt: Double
    public var postID: Int64

    public init(postedAt: Double, postID: Int64) {
        self.postedAt = postedAt
        self.postID = postID
    }
}

/// What a batch of seen marks did, counted over distinct ids.
public struct StorySeenResult: Sendable, Equatable {
    /// Live story items the viewer may see (marked now, or already seen before).
    public var accepted: Int
    /// Everything else (deleted, expired, not a story, another library): skipped.
    public var ignored: Int

    public init(accepted: Int, ignored: Int) {
        self.accepted = accepted
        self.ignored = ignored
    }
}

/// Reading stories and each viewer's seen and liked state.
///
/// "Live" items are in the tray: published (status `story`, or `ready` when kept as a post),
/// not expired, `expires_at` absent or after `now`. Every method that takes a viewer keeps to
/// the libraries that viewer may see (`LibraryGrantStore.scope`): an item of another library
/// is treated exactly like one that does not exist.
public protocol StoryStore: StoryFilingStore {
    /// One page of the tray: people with an unseen live item first, then the newest
    /// `latest_at`, then the name. `next` is nil on the last page.
    func storyTray(viewerID: Int64, now: Date, after: StoryTrayCursor?, limit: Int) async throws
        -> (entries: [StoryTrayEntry], next: StoryTrayCursor?)
    /// `author`'s live items (matched ignoring case), oldest first: the order they play in.
    /// Empty for an unknown name, nothing live or nothing in scope.
    func liveStories(viewerID: Int64, author: String, now: Date) async throws -> [StoryItem]
    /// Marks the live, visible ones of `postIDs` seen; the first `seen_at` of each stays.
    func markStoriesSeen(viewerID: Int64, postIDs: [Int64], now: Date) async throws -> StorySeenResult
    /// Likes or unlikes a live, visible item (idempotent; the first like time stays).
    /// Anything else is `StoreError.notFound`.
    func setStoryLike(viewerID: Int64, postID: Int64, liked: Bool, now: Date) async throws
    /// The item whatever its state (live, expired, unpublished), as `viewerID` would see it, if
    /// it is a story item in the viewer's scope. For the owner's routes: viewers, keep, delete.
    func storyItem(postID: Int64, viewerID: Int64) async throws -> StoryItem?
    /// Who saw the item, newest first, its poster left out.
    func storyViewers(postID: Int64, after: StoryViewersCursor?, limit: Int) async throws
        -> (viewers: [StoryViewer], next: StoryViewersCursor?)
    /// Keeps the item as a post: `kept`, and `ready` if it was published as `story`, so it
    /// joins the library's listings. It stays in the tray until its expiry and is never
    /// deleted by the sweep. `StoreError.notFound` when it is not a story item.
    func keepStory(postID: Int64) async throws
    /// The viewer's own published items (posted by them), live and expired, newest first.
    func storyArchive(viewerID: Int64, after: StoryArchiveCursor?, limit: Int) async throws
        -> (items: [StoryItem], next: StoryArchiveCursor?)
    /// The expiry sweep's store half: marks items whose `expires_at` is at or before `now`
    /// expired, in one transaction, and answers the posts the sweep must now delete with their
    /// media: every expired item that is not kept, not archived, and not posted by a server
    /// user while `keepOwnerArchive` holds. Items already marked and not yet deleted (a sweep
    /// that died halfway) are answered again, so nothing is left behind.
    func expireStories(now: Date, keepOwnerArchive: Bool) async throws -> [Int64]
}
