/// Prompt-to-clip generation, when the node has providers.
struct GenerationFeature: ServerFeature {
    var settings: [ConfigurationSetting] {
        [
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
    }

    func register(in server: FeatureContext) {
        guard let generations = server.dependencies.generations else { return }
        GenerationController(dependencies: generations, limiter: server.limiter, configuration: server.configuration, now: server.now)
            .register(server.routes("generations"))
    }
}
