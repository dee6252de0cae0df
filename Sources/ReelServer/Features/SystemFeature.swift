/// Health, readiness, the OpenAPI document and owners' metrics.
struct SystemFeature: ServerFeature {
    var settings: (any FeatureSettings.Type)? { SystemSettings.self }

    func register(in server: FeatureContext) {
        SystemController(
            registry: server.registry, metrics: server.metrics, jobs: server.dependencies.jobs, accounts: server.dependencies.accounts,
            settings: server.configuration[SystemSettings.self]
        )
        .register(server.routes("system"))
    }
}

/// `/metrics` (owners' credentials), and the benchmark baseline route (owners; off in production).
public struct SystemSettings: FeatureSettings {
    public var metrics = true
    public var benchmarkBaselines = false

    public init() {}

    public static let declarations: [ConfigurationSetting] = [
        .init("metrics", .boolean, env: "REELHOUSE_METRICS", example: "false", "Serve /metrics to owners."),
        .init("benchmarkBaselines", .boolean, env: "REELHOUSE_BENCH_BASELINES", example: "true",
              "Serve the benchmark baseline route (owners; off in production)."),
    ]
}
