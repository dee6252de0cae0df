import Foundation

/// Where a generated clip is in its life. Its work runs as a `generation` job (`JobKind`),
/// which schedules its polls, retries and time limit.
///
/// queued → running → ready (a private preview only its creator sees) → published (a post) |
/// discarded. `failed` keeps the provider's reason (a moderation refusal reads as one). A
/// regeneration is a new generation whose `parentID` points at the one it edits.
public enum GenerationState: String, Codable, Sendable, CaseIterable {
    case queued
    case running
    case ready
    case failed
    case published
    case discarded

    /// Its job still has work to do on it.
    public var isActive: Bool { self == .queued || self == .running }
}

public struct Generation: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var userID: Int64
    /// `GenerationProvider.id` ("local", "openai").
    public var provider: String
    public var prompt: String
    public var style: String
    public var seconds: Int
    public var width: Int
    public var height: Int
    public var state: GenerationState
    /// 0…1.
    public var progress: Double
    public var providerJobID: String?
    public var failureReason: String?
    /// Submissions so far (a transient failure or a lost local job resubmits).
    public var attempts: Int
    /// Polls of the current submission, for the back-off schedule.
    public var polls: Int
    public var submittedAt: Date?
    public var parentID: Int64?
    /// The post it became, once published.
    public var postID: Int64?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64, userID: Int64, provider: String, prompt: String, style: String, seconds: Int, width: Int, height: Int,
        state: GenerationState, progress: Double, providerJobID: String?, failureReason: String?, attempts: Int, polls: Int,
        submittedAt: Date?, parentID: Int64?, postID: Int64?,
        createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.userID = userID
        self.provider = provider
        self.prompt = prompt
        self.style = style
        self.seconds = seconds
        self.width = width
        self.height = height
        self.state = state
        self.progress = progress
        self.providerJobID = providerJobID
        self.failureReason = failureReason
        self.attempts = attempts
        self.polls = polls
        self.submittedAt = submittedAt
        self.parentID = parentID
        self.postID = postID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// What a person asks for, before it has an id.
public struct NewGeneration: Sendable, Equatable {
    public var userID: Int64
    public var provider: String
    public var prompt: String
    public var style: String
    public var seconds: Int
    public var width: Int
    public var height: Int
    public var parentID: Int64?

    public init(userID: Int64, provider: String, prompt: String, style: String, seconds: Int, width: Int, height: Int, parentID: Int64? = nil) {
        self.userID = userID
        self.provider = provider
        self.prompt = prompt
        self.style = style
        self.seconds = seconds
        self.width = width
        self.height = height
        self.parentID = parentID
    }
}
