/// Health, readiness, the OpenAPI document and owners' metrics.
struct SystemFeature: ServerFeature {
    var settings: [ConfigurationSetting] {
        [
            .init("metrics", .boolean, env: "REELHOUSE_METRICS", example: "false", "Serve /metrics to owners."),
            .init("benchmarkBaselines", .boolean, env: "REELHOUSE_BENCH_BASELINES", example: "true",
                  "Serve the benchmark baseline route (owners; off in production)."),
        ]
    }

    func register(in server: FeatureContext) {
        SystemController(
            registry: server.registry, metrics: server.metrics, jobs: server.dependencies.jobs, accounts: server.dependencies.accounts,
            configuration: server.configuration
        )
        .register(server.routes("system"))
    }
}
