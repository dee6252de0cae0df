import Foundation

/// What a library entry is. A carousel is several images (instaloader `_1.jpg`, `_2.jpg`…)
/// published as one post.
public enum PostKind: String, Codable, Sendable, CaseIterable {
    case video
    case image
    case carousel
}

/// Where a post is in its life. Only `ready` posts are ever shown to viewers; `failed` keeps
/// the reason so the failure stays visible instead of "processing" forever.
public enum PostStatus: String, Codable, Sendable, CaseIterable {
    case queued
    case processing
    case ready
    case failed
    /// Published as a story: playable in the stories tray (and by its owner), never in the
    /// feed or any listing, which all keep to `ready`. Keeping a story as a post makes it `ready`.
    case story
}

/// What happens to a post's source before its ladder is encoded.
public enum SourcePreparation: String, Codable, Sendable, CaseIterable {
    /// The source is the mezzanine.
    case asIs = "as_is"
    /// A large upload: re-encoded to H.264 at most 1080p30 first, and that file kept as the
    /// mezzanine (seed 004's size policy), so stored sources stay small.
    case compress
}

/// Descriptive metadata, from sidecars or from the uploader. Every field may be missing.
public struct PostMetadata: Codable, Sendable, Equatable {
    public var description: String?
    public var uploader: String?
    public var username: String?
    public var shortcode: String?
    /// ISO 8601 date-time (UTC) when the clip was originally posted, e.g. `2023-04-01T12:00:00Z`.
    public var datePosted: String?
    public var sourceURL: String?
    public var tags: [String]

    public init(
        description: String? = nil, uploader: String? = nil, username: String? = nil,
        shortcode: String? = nil, datePosted: String? = nil, sourceURL: String? = nil,
        tags: [String] = []
    ) {
        self.description = description
        self.uploader = uploader
        self.username = username
        self.shortcode = shortcode
        self.datePosted = datePosted
        self.sourceURL = sourceURL
        self.tags = tags
    }
}

/// A library entry: one video, one image, or one carousel of images.
public struct Post: Codable, Sendable, Equatable, Identifiable {
    public var id: Int64
    /// Stable, unique, URL-safe slug; the name seed 000's client uses in its routes.
    public var folderName: String
    public var kind: PostKind
    public var status: PostStatus
    public var metadata: PostMetadata
    public var flags: [String]
    public var dateAdded: Date
    /// Hex SHA-256 of the source file(s); the identity used to make import idempotent.
    public var contentHash: String
    public var media: PublishedMedia?
    /// Why the post failed, in words a person understands (set when `status == .failed`).
    public var failureReason: String?
    /// The look the transcode applies (chosen when recording or uploading).
    public var filter: VideoFilter
    /// The user who uploaded it (nil for imports and the demo library); may cancel its jobs.
    public var createdBy: Int64?
    /// What the transcode does to the source before the ladder (an upload's size policy).
    public var preparation: SourcePreparation
    /// The library the post belongs to; members see only the libraries granted to them.
    public var libraryID: Int64
    /// The part of the source this post shows (a long video filed as several story items);
    /// nil: all of it.
    public var trim: SourceTrim?

    /// The library every post was in before there were several, and the one new users get.
    public static let defaultLibraryID: Int64 = 1

    public init(
        id: Int64, folderName: String, kind: PostKind, status: PostStatus, metadata: PostMetadata,
        flags: [String] = [], dateAdded: Date, contentHash: String, media: PublishedMedia? = nil,
        failureReason: String? = nil, filter: VideoFilter = .none, createdBy: Int64? = nil,
        preparation: SourcePreparation = .asIs, libraryID: Int64 = Post.defaultLibraryID, trim: SourceTrim? = nil
    ) {
        self.trim = trim
        self.libraryID = libraryID
        self.filter = filter
        self.createdBy = createdBy
        self.preparation = preparation
        self.id = id
        self.folderName = folderName
        self.kind = kind
        self.status = status
        self.metadata = metadata
        self.flags = flags
        self.dateAdded = dateAdded
        self.contentHash = contentHash
        self.media = media
        self.failureReason = failureReason
    }
}
