import Foundation

/// `PUT /api/v1/me/password` body.
public struct APIPasswordChangeRequest: Codable, Sendable, Equatable {
    public var currentPassword: String
    public var newPassword: String

    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }

    /// The shortest new password accepted (the CLI's `user add` asks the same).
    public static let minimumLength = 8
    public static let maximumLength = 1024
}

/// `POST /api/v1/me/keys` body.
public struct APIKeyCreateRequest: Codable, Sendable, Equatable {
    public var name: String

    public init(name: String) { self.name = name }

    public static let maximumNameLength = 64
}

/// An API key as its owner sees it: never the key itself, only its first characters.
public struct APIKey: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var prefix: String
    public var createdAt: Date
    /// Nil until the key is first used (refreshed at most once a minute).
    public var lastUsedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, name, prefix
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }

    public init(id: Int64, name: String, prefix: String, createdAt: Date, lastUsedAt: Date?) {
        self.id = id
        self.name = name
        self.prefix = prefix
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// `last_used_at` is written even when null, so a client can tell "never used" from "not sent".
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(prefix, forKey: .prefix)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
    }
}

/// `GET /api/v1/me/keys`.
public struct APIKeyList: Codable, Sendable, Equatable {
    public var keys: [APIKey]

    public init(keys: [APIKey]) { self.keys = keys }
}

/// `POST /api/v1/me/keys`: the only answer that carries the secret.
public struct APICreatedKey: Codable, Sendable, Equatable {
    public var key: APIKey
    public var secret: String

    public init(key: APIKey, secret: String) {
        self.key = key
        self.secret = secret
    }
}
