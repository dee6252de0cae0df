/// Browse, Discover's shelves and collections.
struct CatalogFeature: ServerFeature {
    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        let resume = server.configuration[VideoSettings.self].resumeRule
        CatalogController(
            catalog: dependencies.catalog, social: dependencies.social, presenter: server.presenter,
            cursors: CatalogCursorCodec(secret: server.secret), encodedItems: server.encodedItems,
            resume: resume, collectionShelves: CollectionController.shelves(dependencies.collections), now: server.now
        )
        .register(server.routes("catalog"))
        CollectionController(
            collections: dependencies.collections, catalog: dependencies.catalog, social: dependencies.social, presenter: server.presenter,
            cursors: CatalogCursorCodec(secret: server.secret), encodedItems: server.encodedItems, resume: resume, now: server.now
        )
        .register(server.routes("collections"))
    }
}
