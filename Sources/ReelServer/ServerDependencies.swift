import Foundation
import ReelJobs
import ReelStorage
import ReelStore

/// The boundaries the server talks to, each a protocol with the embedded implementation as
/// the default (SQLite, local disk). `buildApplication` wires them once.
public struct ServerDependencies: Sendable {
    public var library: any LibraryStore
    public var jobs: any JobStore
    public var accounts: any AccountStore
    public var social: any SocialStore
    public var feed: any FeedStore
    /// What For You ranks from (`ForYouFeed` ranks above it).
    public var forYou: any ForYouSource
    public var search: any SearchStore
    /// Libraries and who is granted them.
    public var libraries: any LibraryGrantStore
    /// Browse, Discover and its shelves.
    public var catalog: any CatalogStore
    public var collections: any CollectionStore
    /// Stories: the tray, seen and liked marks, the poster's archive.
    public var stories: any StoryStore
    /// For You's watch events, history and hidden lists.
    public var events: any EventStore
    public var storage: any MediaStorage
    /// Posts' source files, removed with the last post using them; nil leaves them on disk.
    public var sources: (any SourceStorage)?
    public var passwords: any PasswordHasher
    /// The login, bad-key, API, event and generation limits: in this node's memory by
    /// default; PostgreSQL's when several API nodes must count together.
    public var rateLimits: any RateLimitStore
    /// HMAC secret for media tokens and feed cursors; the same on every API node.
    public var secret: Data
    public var now: @Sendable () -> Date
    /// `ORDER BY random()`, served at `/bench/feed-order-by-random` only when the
    /// `benchmarkBaselines` setting is on: what `make bench` compares the feed with.
    public var orderByRandomBaseline: (@Sendable (_ userID: Int64, _ limit: Int) async throws -> [FeedItem])?
    /// Prompt-to-clip generation; nil leaves its routes out.
    public var generations: GenerationDependencies?
    /// tus uploads; nil leaves their routes out.
    public var uploads: UploadDependencies?
    /// Where this process's job workers say a job changed; the handlers that wait for a job
    /// (an upload's last PATCH, a job's progress stream) wake on it.
    public var jobActivity: JobActivity

    public init(
        library: any LibraryStore, jobs: any JobStore, accounts: any AccountStore, social: any SocialStore,
        feed: any FeedStore, forYou: any ForYouSource, search: any SearchStore, libraries: any LibraryGrantStore, catalog: any CatalogStore, collections: any CollectionStore,
        stories: any StoryStore, events: any EventStore,
        storage: any MediaStorage, sources: (any SourceStorage)? = nil, passwords: any PasswordHasher, secret: Data,
        now: @escaping @Sendable () -> Date = Date.init,
        orderByRandomBaseline: (@Sendable (_ userID: Int64, _ limit: Int) async throws -> [FeedItem])? = nil,
        generations: GenerationDependencies? = nil, uploads: UploadDependencies? = nil,
        rateLimits: any RateLimitStore = MemoryRateLimitStore(), jobActivity: JobActivity = JobActivity()
    ) {
        self.jobActivity = jobActivity
        self.rateLimits = rateLimits
        self.uploads = uploads
        self.generations = generations
        self.orderByRandomBaseline = orderByRandomBaseline
        self.library = library
        self.jobs = jobs
        self.accounts = accounts
        self.social = social
        self.feed = feed
        self.forYou = forYou
        self.search = search
        self.libraries = libraries
        self.sources = sources
        self.catalog = catalog
        self.collections = collections
        self.stories = stories
        self.events = events
        self.storage = storage
        self.passwords = passwords
        self.secret = secret
        self.now = now
    }
}
