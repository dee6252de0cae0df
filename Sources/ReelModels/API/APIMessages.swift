import Foundation

/// A page of the endless feed. `nextCursor` is opaque; pass it back to continue.
public struct APIFeedPage: Codable, Sendable, Equatable {
    public var items: [APIVideo]
    public var nextCursor: String?
    /// `GET /api/v1/feed` only: the order this page was served in (the default depends on the
    /// person's history; docs/recommendations-api.md). Nil (omitted) elsewhere.
    public var mode: FeedMode?

    /// snake_case on the wire, spelled out so encoding needs no key conversion per request.
    enum CodingKeys: String, CodingKey {
        case items
        case nextCursor = "next_cursor"
        case mode
    }

    public init(items: [APIVideo], nextCursor: String?, mode: FeedMode? = nil) {
        self.items = items
        self.nextCursor = nextCursor
        self.mode = mode
    }
}

/// Every error response: `{"error":{"code":"…","message":"…"}}`.
public struct APIErrorBody: Codable, Sendable, Equatable {
    public struct Detail: Codable, Sendable, Equatable {
        public var code: String
        public var message: String

        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    public var error: Detail

    public init(code: String, message: String) {
        self.error = Detail(code: code, message: message)
    }
}

public struct APILoginRequest: Codable, Sendable, Equatable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

public struct APIUser: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var role: String

    public init(id: Int64, name: String, role: String) {
        self.id = id
        self.name = name
        self.role = role
    }
}

/// `POST /api/videos/{folder}/favorite` (seed 000) body.
public struct APIFavoriteRequest: Codable, Sendable, Equatable {
    public var isFavorited: Bool

    public init(isFavorited: Bool) { self.isFavorited = isFavorited }
}

/// `PUT /api/v1/videos/{id}/rating` and seed 000's `POST …/rating` body.
public struct APIRatingRequest: Codable, Sendable, Equatable {
    public var rating: Int

    public init(rating: Int) { self.rating = rating }
}

public struct APITagsRequest: Codable, Sendable, Equatable {
    public var tags: [String]

    public init(tags: [String]) { self.tags = tags }
}

public struct APIFlagRequest: Codable, Sendable, Equatable {
    public var flag: String

    public init(flag: String) { self.flag = flag }
}

public struct APIPositionRequest: Codable, Sendable, Equatable {
    public var seconds: Double?

    public init(seconds: Double?) { self.seconds = seconds }
}

/// The state a mutation leaves a post in, so optimistic clients can reconcile.
public struct APIViewerState: Codable, Sendable, Equatable {
    public var id: Int64
    public var isFavorited: Bool
    public var rating: Int

    /// snake_case on the wire, spelled out so encoding needs no key conversion per request.
    enum CodingKeys: String, CodingKey {
        case id
        case isFavorited = "is_favorited"
        case rating
    }

    public init(id: Int64, isFavorited: Bool, rating: Int) {
        self.id = id
        self.isFavorited = isFavorited
        self.rating = rating
    }
}

public struct APITagCount: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var count: Int

    public init(id: Int64, name: String, count: Int) {
        self.id = id
        self.name = name
        self.count = count
    }
}

public struct APIJob: Codable, Sendable, Equatable {
    public var id: Int64
    public var kind: String
    public var postId: Int64?
    /// Set on `generation` jobs: the generation they advance.
    public var generationId: Int64?
    /// Set on `upload_import` jobs: the tus upload they import.
    public var uploadId: String?
    public var state: String
    public var progress: Double
    public var attempts: Int
    public var maxAttempts: Int
    public var lastError: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var startedAt: Date?
    /// Seconds until a running job should finish, from its progress rate; nil when unknown.
    public var etaSeconds: Double?

    /// snake_case on the wire, spelled out so encoding needs no key conversion per request.
    enum CodingKeys: String, CodingKey {
        case id
        case kind
        case startedAt = "started_at"
        case etaSeconds = "eta_seconds"
        case postId = "post_id"
        case generationId = "generation_id"
        case uploadId = "upload_id"
        case state
        case progress
        case attempts
        case maxAttempts = "max_attempts"
        case lastError = "last_error"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(job: Job, now: Date = Date()) {
        self.startedAt = job.startedAt
        self.etaSeconds = job.estimatedSecondsLeft(now: now).map { ($0 * 10).rounded() / 10 }
        self.id = job.id
        self.kind = job.kind.rawValue
        self.postId = job.postID
        self.generationId = job.kind == .generation ? job.subject.flatMap { Int64($0) } : nil
        self.uploadId = job.kind == .uploadImport ? job.subject : nil
        self.state = job.state.rawValue
        self.progress = job.progress
        self.attempts = job.attempts
        self.maxAttempts = job.maxAttempts
        self.lastError = job.lastError
        self.createdAt = job.createdAt
        self.updatedAt = job.updatedAt
    }
}

public struct APIList<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public var items: [Item]
    public var nextCursor: String?

    /// snake_case on the wire, spelled out so encoding needs no key conversion per request.
    enum CodingKeys: String, CodingKey {
        case items
        case nextCursor = "next_cursor"
    }

    public init(items: [Item], nextCursor: String? = nil) {
        self.items = items
        self.nextCursor = nextCursor
    }
}
