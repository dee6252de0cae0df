import Foundation

/// A service that turns a text prompt into a short video, asynchronously: submit a job, poll
/// its status, download the result. OpenAI's video API and our embedded ffmpeg renderer both
/// fit this shape, and so does any future provider; the generation job never knows which
/// one it talks to.
public protocol GenerationProvider: Sendable {
    /// Stable identifier stored with each generation ("local", "openai").
    var id: String { get }
    /// What the UI shows, honestly naming what the provider is.
    var displayName: String { get }
    /// True when nothing leaves this machine.
    var isLocal: Bool { get }

    /// Starts a job; returns the provider's id for it.
    func submit(_ request: GenerationRequest) async throws(GenerationError) -> String
    func status(of jobID: String) async throws(GenerationError) -> GenerationProgress
    /// Writes the finished MP4 to `file` (only after `status` said `.completed`).
    func download(_ jobID: String, to file: URL) async throws(GenerationError)
}

/// What a person asked for.
public struct GenerationRequest: Sendable, Equatable, Codable {
    public var prompt: String
    public var style: GenerationStyle
    public var seconds: Int
    /// Portrait 9:16 unless stated: this is a short-form platform.
    public var width: Int
    public var height: Int

    public init(prompt: String, style: GenerationStyle = .aurora, seconds: Int = 4, width: Int = 720, height: Int = 1280) {
        self.prompt = prompt
        self.style = style
        self.seconds = seconds
        self.width = width
        self.height = height
    }

    public static let maxPromptLength = 1000
    public static let allowedSeconds = [4, 8, 12]

    /// Checks what every provider needs, so a bad request fails before anything is queued.
    public func validated() throws(GenerationError) -> GenerationRequest {
        var copy = self
        copy.prompt = prompt.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !copy.prompt.isEmpty else { throw .invalidRequest("the prompt is empty") }
        guard copy.prompt.count <= Self.maxPromptLength else {
            throw .invalidRequest("the prompt has \(copy.prompt.count) characters; the limit is \(Self.maxPromptLength)")
        }
        guard Self.allowedSeconds.contains(seconds) else {
            throw .invalidRequest("seconds must be one of \(Self.allowedSeconds.map(String.init).joined(separator: ", "))")
        }
        guard (width, height) == (720, 1280) || (width, height) == (1280, 720) else {
            throw .invalidRequest("size must be 720x1280 or 1280x720")
        }
        return copy
    }
}

/// The look of a locally rendered card; remote providers pass it on as part of the prompt.
public enum GenerationStyle: String, Sendable, Codable, CaseIterable {
    case aurora
    case sunset
    case matrix
    case mono

    public var summary: String {
        switch self {
        case .aurora: "drifting blue-green gradient"
        case .sunset: "warm orange-to-purple gradient"
        case .matrix: "green cellular animation on black"
        case .mono: "grey film-grain noise"
        }
    }
}

/// Where a provider's job is.
public enum GenerationProgress: Sendable, Equatable {
    case queued
    /// 0…1 when the provider reports it.
    case running(Double?)
    case completed
    case failed(GenerationError)
}
