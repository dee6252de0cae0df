/// Every store protocol at once: what one metadata backend (SQLite in the data folder, or one
/// PostgreSQL database shared by every node) answers for a whole node — the same protocols
/// `ServerDependencies` takes one by one. The CLI, the server wiring and the workers hold the
/// chosen store as `any MetadataStore`, so nothing past the one place that picks it knows which.
public typealias MetadataStore = LibraryStore & JobStore & AccountStore & SocialStore & FeedStore & ForYouSource & SearchStore
    & LibraryGrantStore & CatalogStore & CollectionStore & StoryStore & EventStore & GenerationStore
