import Foundation

/// `POST /api/v1/generations`. Decoded with snake_case conversion, so no CodingKeys here.
public struct APIGenerationRequest: Codable, Sendable, Equatable {
    public var prompt: String
    /// One of the provider list's styles; default "aurora".
    public var style: String?
    /// 4, 8 or 12; default 4.
    public var seconds: Int?
    /// "portrait" (720×1280, default) or "landscape".
    public var orientation: String?
    /// A provider id from `GET /api/v1/generations/providers`; default the server's default.
    public var provider: String?

    public init(prompt: String, style: String? = nil, seconds: Int? = nil, orientation: String? = nil, provider: String? = nil) {
        self.prompt = prompt
        self.style = style
        self.seconds = seconds
        self.orientation = orientation
        self.provider = provider
    }
}

/// `POST /api/v1/generations/{id}/publish`.
public struct APIGenerationPublishRequest: Codable, Sendable, Equatable {
    public var description: String?
    public var tags: [String]?

    public init(description: String? = nil, tags: [String]? = nil) {
        self.description = description
        self.tags = tags
    }
}

/// `POST /api/v1/generations/{id}/regenerate`: the same generation with an edited prompt.
public struct APIRegenerateRequest: Codable, Sendable, Equatable {
    public var prompt: String?
    public var style: String?

    public init(prompt: String? = nil, style: String? = nil) {
        self.prompt = prompt
        self.style = style
    }
}

public struct APIGeneration: Codable, Sendable, Equatable {
    public var id: Int64
    public var state: String
    public var progress: Double
    public var prompt: String
    public var style: String
    public var seconds: Int
    public var width: Int
    public var height: Int
    public var provider: String
    public var providerName: String
    /// Why it failed, in words a person can act on.
    public var failureReason: String?
    /// The private preview (only its creator may load it), once ready.
    public var previewUrl: String?
    public var postId: Int64?
    public var parentId: Int64?
    public var createdAt: Date
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, state, progress, prompt, style, seconds, width, height, provider
        case providerName = "provider_name"
        case failureReason = "failure_reason"
        case previewUrl = "preview_url"
        case postId = "post_id"
        case parentId = "parent_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(generation: Generation, providerName: String) {
        id = generation.id
        state = generation.state.rawValue
        progress = generation.progress
        prompt = generation.prompt
        style = generation.style
        seconds = generation.seconds
        width = generation.width
        height = generation.height
        provider = generation.provider
        self.providerName = providerName
        failureReason = generation.failureReason
        previewUrl = generation.state == .ready ? "/api/v1/generations/\(generation.id)/preview.mp4" : nil
        postId = generation.postID
        parentId = generation.parentID
        createdAt = generation.createdAt
        updatedAt = generation.updatedAt
    }
}

public struct APIGenerationProvider: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    /// True when nothing leaves the server.
    public var local: Bool
    public var isDefault: Bool
    public var styles: [String]

    enum CodingKeys: String, CodingKey {
        case id, name, local, styles
        case isDefault = "is_default"
    }

    public init(id: String, name: String, local: Bool, isDefault: Bool, styles: [String]) {
        self.id = id
        self.name = name
        self.local = local
        self.isDefault = isDefault
        self.styles = styles
    }
}

/// What publishing started: the post (processing) and the transcode job to follow.
public struct APIGenerationPublished: Codable, Sendable, Equatable {
    public var generation: APIGeneration
    public var postId: Int64
    public var jobIds: [Int64]

    enum CodingKeys: String, CodingKey {
        case generation
        case postId = "post_id"
        case jobIds = "job_ids"
    }

    public init(generation: APIGeneration, postId: Int64, jobIds: [Int64]) {
        self.generation = generation
        self.postId = postId
        self.jobIds = jobIds
    }
}
