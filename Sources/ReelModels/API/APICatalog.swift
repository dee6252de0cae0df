import Foundation

/// When the player resumes a post, and Continue watching lists it (`GET /api/v1/me`'s `resume`).
public struct APIResumeRule: Codable, Sendable, Equatable {
    public var minDuration: Double
    public var minFraction: Double
    public var maxFraction: Double

    public init(minDuration: Double, minFraction: Double, maxFraction: Double) {
        self.minDuration = minDuration
        self.minFraction = minFraction
        self.maxFraction = maxFraction
    }

    enum CodingKeys: String, CodingKey {
        case minDuration = "min_duration"
        case minFraction = "min_fraction"
        case maxFraction = "max_fraction"
    }
}

/// `GET /api/v1/me`: the signed-in user and the server's resume rule.
public struct APIMe: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var role: String
    public var resume: APIResumeRule

    public init(id: Int64, name: String, role: String, resume: APIResumeRule) {
        self.id = id
        self.name = name
        self.role = role
        self.resume = resume
    }
}

/// A named, ordered set of posts an owner curates.
public struct APICollection: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    /// Ready posts in it.
    public var count: Int
    /// The first ready post's poster (or first image), nil when it holds none.
    public var cover: APIImage?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: Int64, name: String, count: Int, cover: APIImage?, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.count = count
        self.cover = cover
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name, count, cover
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// `cover` is written as null when absent, as the contract says.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(count, forKey: .count)
        try container.encode(cover, forKey: .cover)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

/// `GET /api/v1/collections`.
public struct APICollectionList: Codable, Sendable, Equatable {
    public var collections: [APICollection]

    public init(collections: [APICollection]) {
        self.collections = collections
    }
}

/// `POST /api/v1/collections`. Decoded with snake_case conversion, so no CodingKeys here.
public struct APICollectionCreateRequest: Codable, Sendable, Equatable {
    public var name: String
    public var postIds: [Int64]?

    public init(name: String, postIds: [Int64]? = nil) {
        self.name = name
        self.postIds = postIds
    }
}

/// `PUT /api/v1/collections/{id}`: a new name, and/or the members in their new order.
public struct APICollectionUpdateRequest: Codable, Sendable, Equatable {
    public var name: String?
    public var postIds: [Int64]?

    public init(name: String? = nil, postIds: [Int64]? = nil) {
        self.name = name
        self.postIds = postIds
    }
}

/// `POST /api/v1/collections/{id}/items`.
public struct APICollectionItemRequest: Codable, Sendable, Equatable {
    public var postId: Int64

    public init(postId: Int64) {
        self.postId = postId
    }
}
