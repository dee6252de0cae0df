import Foundation

/// "This is a story item of account X, posted at T": what an instaloader story sidecar says
/// beyond the post metadata. The importer files such a media file as an archived story instead
/// of a post.
public struct StorySidecar: Sendable, Equatable {
    /// The account's username, the name its tray shows. The loader falls back to the folder
    /// instaloader named after the profile when the node names no owner; nil when neither does.
    public var author: String?
    /// When the item was posted (`taken_at_timestamp`), as precisely as the sidecar records it.
    /// The loader falls back to instaloader's `{date_utc}_UTC` file name.
    public var postedAt: Date?
    /// When Instagram let it disappear (`expiring_at_timestamp`). Only informational: how long
    /// an archived story stays in the tray is the library's setting.
    public var expiringAt: Date?

    public init(author: String? = nil, postedAt: Date? = nil, expiringAt: Date? = nil) {
        self.author = author
        self.postedAt = postedAt
        self.expiringAt = expiringAt
    }

    /// The `__typename`s of story nodes: the GraphQL ones instaloader saves, and the names
    /// instaloader itself also checks for (`StoryImage`) from Instagram's newer API.
    static let storyTypeNames: Set<String> = ["GraphStoryVideo", "GraphStoryImage", "StoryVideo", "StoryImage"]

    /// Whether a node is a story item: instaloader wrote it as a `StoryItem`, or its type name
    /// is a story's (a bare node, or a wrapper from a version that named the type differently).
    static func isStory(typeName: String?, nodeType: String?) -> Bool {
        nodeType == "StoryItem" || typeName.map(storyTypeNames.contains) == true
    }

    /// Fills what the node left out from where instaloader put the file: `--stories PROFILE`
    /// downloads into a folder named after the profile (`:stories` for everyone's stories,
    /// which names nobody), as `{date_utc}_UTC` with the time to the second.
    func completed(fromSidecarAt url: URL) -> StorySidecar {
        var story = self
        if story.author == nil {
            let folder = url.deletingLastPathComponent().lastPathComponent
            if Self.isPlausibleUsername(folder) { story.author = folder }
        }
        if story.postedAt == nil {
            story.postedAt = Self.date(fromInstaloaderName: url.lastPathComponent)
        }
        return story
    }

    /// Instagram usernames: 1…30 letters, digits, `.` and `_`.
    static func isPlausibleUsername(_ name: String) -> Bool {
        (1...30).contains(name.count) && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") }
    }

    /// `2023-07-22_04-26-40_UTC.json.xz` → 2023-07-22T04:26:40Z; nil for any other name.
    static func date(fromInstaloaderName name: String) -> Date? {
        let pattern = /^(\d{4})-(\d{2})-(\d{2})_(\d{2})-(\d{2})-(\d{2})_UTC\./
        guard let match = name.prefixMatch(of: pattern) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let components = DateComponents(
            year: Int(match.1), month: Int(match.2), day: Int(match.3),
            hour: Int(match.4), minute: Int(match.5), second: Int(match.6)
        )
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }
}
