import Foundation

/// A library as `GET /api/v1/libraries` lists it. `members` (the ids of the users granted it)
/// is sent to owners only and left out for everyone else.
public struct APILibrary: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    /// Ready posts in it.
    public var postCount: Int
    public var members: [Int64]?
    /// Archived stories (instaloader) filed into it never expire; off, they expire like a
    /// user's stories, counted from their original time.
    public var keepArchivedStories: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, members
        case postCount = "post_count"
        case keepArchivedStories = "keep_archived_stories"
    }

    public init(id: Int64, name: String, postCount: Int, members: [Int64]?, keepArchivedStories: Bool = true) {
        self.id = id
        self.name = name
        self.postCount = postCount
        self.members = members
        self.keepArchivedStories = keepArchivedStories
    }
}

public struct APILibraryList: Codable, Sendable, Equatable {
    public var libraries: [APILibrary]

    public init(libraries: [APILibrary]) { self.libraries = libraries }
}

/// `POST /api/v1/libraries` body.
public struct APILibraryCreateRequest: Codable, Sendable, Equatable {
    public var name: String

    public init(name: String) { self.name = name }
}

/// `PUT /api/v1/libraries/{id}` body: absent (or null) fields are left as they are;
/// `members` replaces who is granted the library.
public struct APILibraryUpdateRequest: Codable, Sendable, Equatable {
    public var name: String?
    public var members: [Int64]?
    /// `keep_archived_stories` (request bodies are read converting from snake_case).
    public var keepArchivedStories: Bool?

    public init(name: String? = nil, members: [Int64]? = nil, keepArchivedStories: Bool? = nil) {
        self.name = name
        self.members = members
        self.keepArchivedStories = keepArchivedStories
    }

    public static let maxMembers = 1000
}
