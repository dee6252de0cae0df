import Foundation
import ReelModels

/// A library: a named set of posts, and who may see it.
public struct LibraryRecord: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var name: String
    /// Ready posts in it.
    public var postCount: Int
    /// The users granted it, by id, ascending (owners see every library whether granted or not).
    public var members: [Int64]
    /// Archived stories (instaloader) filed into it never expire; off, they expire like a
    /// user's stories, counted from their original time.
    public var keepArchivedStories: Bool

    public init(id: Int64, name: String, postCount: Int, members: [Int64], keepArchivedStories: Bool = true) {
        self.id = id
        self.name = name
        self.postCount = postCount
        self.members = members
        self.keepArchivedStories = keepArchivedStories
    }
}

/// Which libraries a listing covers, worked out from who asks and what they asked for.
public enum LibraryScope: Sendable, Equatable {
    /// Every library (an owner, or a member granted every library there is).
    case all
    /// Only these (never empty unless the member is granted nothing).
    case only([Int64])

    /// The ids a query must keep to; nil for every library (no condition at all).
    public var libraryIDs: [Int64]? {
        switch self {
        case .all: nil
        case .only(let ids): ids
        }
    }

    public func contains(_ libraryID: Int64) -> Bool {
        switch self {
        case .all: true
        case .only(let ids): ids.contains(libraryID)
        }
    }

    /// What a user may see, from what the store read about them (nil: no such user, who sees
    /// nothing): owners every library; members those granted (every one, as `.all`, when granted
    /// all there are). A `requested` library is the scope when visible — it exists, for an owner;
    /// it is granted, for a member — and `StoreError.notFound` otherwise, exactly like a library
    /// that does not exist, so its existence is not revealed.
    public static func resolve(_ viewer: ScopeFacts?, requested: Int64?) throws -> LibraryScope {
        let granted = viewer?.granted.sorted() ?? []
        let isOwner = viewer?.role == .owner
        if let requested {
            let visible = isOwner ? viewer?.requestedExists == true : granted.contains(requested)
            guard visible else { throw StoreError.notFound("library \(requested)") }
            return .only([requested])
        }
        guard let viewer else { return .only([]) }
        if isOwner { return .all }
        return granted.count == viewer.libraryCount && viewer.libraryCount > 0 ? .all : .only(granted)
    }
}

/// What deciding a user's `LibraryScope` needs, read in one query.
public struct ScopeFacts: Sendable, Equatable {
    public var role: UserRole?
    /// Libraries there are.
    public var libraryCount: Int
    /// Libraries granted to the user.
    public var granted: [Int64]
    /// Whether the library asked for exists (false when none was asked for).
    public var requestedExists: Bool

    public init(role: UserRole?, libraryCount: Int, granted: [Int64], requestedExists: Bool) {
        self.role = role
        self.libraryCount = libraryCount
        self.granted = granted
        self.requestedExists = requestedExists
    }
}

/// Libraries and the per-user grants to them. Names are unique ignoring case.
///
/// Listings (`FeedStore`, `SearchStore`, favorites) apply `scope(userID:requested:)` themselves
/// from the user id they are given, so no listing can forget it.
public protocol LibraryGrantStore: ArchivedStorySettingStore {
    /// Every library, oldest first.
    func libraries() async throws -> [LibraryRecord]
    func library(id: Int64) async throws -> LibraryRecord?
    /// Ignoring case.
    func library(name: String) async throws -> LibraryRecord?
    /// A taken name is `StoreError.conflict`.
    func createLibrary(name: String, now: Date) async throws -> LibraryRecord
    /// A taken name is `StoreError.conflict`, an unknown library `StoreError.notFound`.
    func renameLibrary(id: Int64, name: String) async throws -> LibraryRecord
    /// Replaces who is granted the library; an unknown user or library is `StoreError.notFound`.
    func setMembers(libraryID: Int64, userIDs: [Int64]) async throws -> LibraryRecord
    /// Granting twice, or revoking what was not granted, changes nothing.
    func grant(libraryID: Int64, userID: Int64) async throws
    func revoke(libraryID: Int64, userID: Int64) async throws
    /// Turns `keep_archived_stories` on or off; an unknown library is `StoreError.notFound`.
    /// Applies to stories filed afterwards (a filed story keeps the expiry it was given).
    func setKeepArchivedStories(libraryID: Int64, keep: Bool) async throws -> LibraryRecord
    /// What `userID` may see, narrowed to `requested` when given. A requested library that
    /// does not exist or is not granted to a member is `StoreError.notFound`, exactly like a
    /// library that does not exist, so its existence is not revealed. An unknown user sees nothing.
    func scope(userID: Int64, requested: Int64?) async throws -> LibraryScope
}
