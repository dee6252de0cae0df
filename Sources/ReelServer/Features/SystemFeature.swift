/// Health, readiness, the OpenAPI document and owners' metrics.
struct SystemFeature: ServerFeature {
    func register(in server: FeatureContext) {
        SystemController(
            registry: server.registry, metrics: server.metrics, jobs: server.dependencies.jobs, accounts: server.dependencies.accounts,
            configuration: server.configuration
        )
        .register(server.routes("system"))
    }
}
