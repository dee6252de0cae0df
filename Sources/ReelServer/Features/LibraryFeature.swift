/// A person's saved things (`/api/v1/library`) and the libraries they may see.
struct LibraryFeature: ServerFeature {
    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        LibraryController(social: dependencies.social, presenter: server.presenter, resume: server.configuration[VideoSettings.self].resumeRule, now: server.now)
            .register(server.routes("library"))
        LibrariesController(libraries: dependencies.libraries, accounts: dependencies.accounts, now: server.now)
            .register(server.routes("libraries"))
    }
}
