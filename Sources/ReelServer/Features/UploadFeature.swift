/// Resumable (tus) uploads, when the node takes them.
struct UploadFeature: ServerFeature {
    func register(in server: FeatureContext) {
        guard let uploads = server.dependencies.uploads else { return }
        UploadController(dependencies: uploads, libraries: server.dependencies.libraries, activity: server.dependencies.jobActivity, now: server.now)
            .register(server.routes("uploads"))
    }
}
