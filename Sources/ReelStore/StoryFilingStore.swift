import Foundation

/// How a post is filed as a story item: whose tray, posted when, until when.
public struct StoryFiling: Sendable, Equatable {
    /// The person the tray shows: a server user's username, or the account an archived or
    /// outside-catalogue story came from. Grouped ignoring case.
    public var author: String
    /// The server user who posted it (nil for archived and outside-catalogue stories).
    public var userID: Int64?
    /// When it was posted: upload time, or the original time an archive recorded.
    public var postedAt: Date
    /// When it leaves the tray; nil never (archived stories in a library that keeps them).
    public var expiresAt: Date?
    /// Came from an archive of someone's stories (instaloader `:stories`).
    public var archived: Bool
    /// Which 60 s part of its source this item is (0-based), and how many parts there are.
    public var part: Int
    public var parts: Int

    public init(
        author: String, userID: Int64? = nil, postedAt: Date, expiresAt: Date?, archived: Bool = false,
        part: Int = 0, parts: Int = 1
    ) {
        self.author = author
        self.userID = userID
        self.postedAt = postedAt
        self.expiresAt = expiresAt
        self.archived = archived
        self.part = part
        self.parts = parts
    }
}

/// Filing posts as story items, the one story write import and uploads need. Readers (tray,
/// seen, likes, expiry) are `StoryStore`'s.
public protocol StoryFilingStore: Sendable {
    /// Files `postID` as a story item. Call it before the post is published: publishing a
    /// filed post makes it `story`, not `ready`. Filing the same post again replaces its filing.
    func fileStory(postID: Int64, _ filing: StoryFiling) async throws
}
