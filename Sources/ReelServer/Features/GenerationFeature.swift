import Foundation
import ReelStore

/// Prompt-to-clip generation, when the node has providers.
struct GenerationFeature: ServerFeature {
    var settings: (any FeatureSettings.Type)? { GenerationSettings.self }

    func register(in server: FeatureContext) {
        guard let generations = server.dependencies.generations else { return }
        GenerationController(dependencies: generations, limiter: server.limiter, settings: server.configuration[GenerationSettings.self], now: server.now)
            .register(server.routes("generations"))
    }
}

/// Generation: the provider used when a request names none ("local" needs nothing; "openai"
/// needs the openAIApiKey secret), per-user limits, the OpenAI-compatible endpoint (tests and
/// gateways change it) and model, and the bounds of each new generation's job.
public struct GenerationSettings: FeatureSettings {
    public var generationProvider = "local"
    public var generationsPerMinute = 6
    public var generationsPerDay = 20
    public var openAIBaseURL = "https://api.openai.com"
    public var openAIVideoModel = "sora-2"
    public var generationMaxAttempts = GenerationJobLimits().maxAttempts
    public var generationTimeLimitSeconds = Int(GenerationJobLimits().timeLimit)

    public init() {}

    /// The bounds of each new generation's job.
    public var jobLimits: GenerationJobLimits {
        GenerationJobLimits(maxAttempts: generationMaxAttempts, timeLimit: TimeInterval(generationTimeLimitSeconds))
    }

    public static let declarations: [ConfigurationSetting] = [
        .init("generationProvider", .text, env: "REELHOUSE_GENERATION_PROVIDER", example: "openai",
              "Default generation provider: local, or openai (needs openAIApiKey: OPENAI_API_KEY)."),
        .init("generationsPerMinute", .integer, env: "REELHOUSE_GENERATIONS_PER_MINUTE", example: "2", "Generations per user per minute."),
        .init("generationsPerDay", .integer, env: "REELHOUSE_GENERATIONS_PER_DAY", example: "5", "Generations per user per day."),
        .init("openAIBaseURL", .text, env: "REELHOUSE_OPENAI_BASE_URL", example: "http://127.0.0.1:9999",
              "OpenAI-compatible endpoint for the openai provider."),
        .init("openAIVideoModel", .text, env: "REELHOUSE_OPENAI_VIDEO_MODEL", example: "sora-2-pro", "Video model for the openai provider."),
        .init("generationMaxAttempts", .integer, env: "REELHOUSE_GENERATION_MAX_ATTEMPTS", example: "5",
              "Attempts of a generation's job (submissions and polls that fail)."),
        .init("generationTimeLimitSeconds", .integer, env: "REELHOUSE_GENERATION_TIME_LIMIT_SECONDS", example: "600",
              "A generation that has not finished this long after it began fails."),
    ]

    public func validate() throws(ConfigurationError) {
        guard ["local", "openai"].contains(generationProvider) else {
            throw ConfigurationError("generationProvider must be local or openai")
        }
        guard generationsPerMinute >= 1, generationsPerDay >= 1 else {
            throw ConfigurationError("generationsPerMinute and generationsPerDay must be at least 1")
        }
        guard generationMaxAttempts >= 1, generationTimeLimitSeconds >= 1 else {
            throw ConfigurationError("generationMaxAttempts and generationTimeLimitSeconds must be at least 1")
        }
    }
}
