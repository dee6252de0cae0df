/// Prompt-to-clip generation, when the node has providers.
struct GenerationFeature: ServerFeature {
    func register(in server: FeatureContext) {
        guard let generations = server.dependencies.generations else { return }
        GenerationController(dependencies: generations, limiter: server.limiter, configuration: server.configuration, now: server.now)
            .register(server.routes("generations"))
    }
}
