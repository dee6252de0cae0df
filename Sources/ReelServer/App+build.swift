import Foundation
import Hummingbird
import Logging
import ReelForYou
import ReelLibrary
import ReelStorage
import ReelStore
import ServiceLifecycle

/// Wires the server once: middleware, controllers, services. Everything it talks to comes in
/// through `ServerDependencies`, so tests build the same application on a throw-away library.
public func buildApplication(
    configuration: ServerConfiguration, dependencies: ServerDependencies, services: [any Service] = [],
    metrics: MetricsRegistry = MetricsRegistry(), logger: Logger,
    onListening: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let (router, _) = buildRouter(configuration: configuration, dependencies: dependencies, metrics: metrics)
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "reelhouse"),
        services: services,
        // Called once the socket is bound, with the port it got (the one asked for, or the
        // kernel's pick for port 0).
        onServerRunning: { channel in await onListening(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
}

/// The router and the list of routes it serves (for the OpenAPI document and its test).
public func buildRouter(
    configuration: ServerConfiguration, dependencies: ServerDependencies, metrics: MetricsRegistry = MetricsRegistry()
) -> (Router<AppRequestContext>, RouteRegistry) {
    let router = Router(context: AppRequestContext.self)
    let registry = RouteRegistry()
    let limiter = dependencies.rateLimits
    let now = dependencies.now

    router.add(middleware: MetricsMiddleware(registry: metrics))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: TusResumableMiddleware())
    router.add(middleware: ErrorMiddleware(routes: registry))
    router.add(middleware: BodyLimitMiddleware(maxBodyBytes: configuration.maxBodyBytes))
    router.add(middleware: ClientAddressMiddleware(trusted: ClientAddress.trustedSet(configuration.trustedProxies)))
    let credentials = CredentialCache(ttl: TimeInterval(configuration.credentialCacheSeconds))
    router.add(middleware: AuthMiddleware(
        accounts: dependencies.accounts, limiter: limiter, apiLimiter: BatchedRateLimitStore(shared: limiter), cache: credentials,
        configuration: configuration, now: now
    ))
    router.add(middleware: CrossSiteWriteMiddleware())
    let mediaAccess = MediaAccess(
        accounts: dependencies.accounts, grants: dependencies.libraries, lifetime: TimeInterval(configuration.mediaAccessCacheSeconds)
    )
    router.add(middleware: MediaViewerMiddleware(access: mediaAccess, now: now))
    if let webRoot = configuration.webRoot {
        // The web client's shell (HTML, ES modules, CSS, icons) is public, like any login page;
        // `no-cache` revalidates it so an update shows at once (its service worker keeps it offline).
        router.add(middleware: WebClientMiddleware(files: FileMiddleware(
            webRoot, cacheControl: .init([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true
        )))
    }

    let tokens = MediaTokenSigner(
        secret: dependencies.secret, windowSeconds: configuration.mediaTokenWindowSeconds,
        marginSeconds: configuration.mediaTokenMarginSeconds
    )
    let images = ImageURLSigner(secret: dependencies.secret)
    let presenter = VideoPresenter(tokens: tokens, images: images)
    func routes(_ tag: String) -> APIRoutes { APIRoutes(router: router, registry: registry, tag: tag) }

    SystemController(registry: registry, metrics: metrics, jobs: dependencies.jobs, accounts: dependencies.accounts, configuration: configuration)
        .register(routes("system"))
    SessionController(accounts: dependencies.accounts, passwords: dependencies.passwords, limiter: limiter, credentials: credentials, configuration: configuration, now: now)
        .register(routes("session"))
    AccountController(accounts: dependencies.accounts, passwords: dependencies.passwords, limiter: limiter, credentials: credentials, configuration: configuration, now: now)
        .register(routes("me"))
    let feed = FeedController(
        feed: dependencies.feed, forYou: ForYouFeed(source: dependencies.forYou, feed: dependencies.feed), social: dependencies.social, presenter: presenter,
        cursors: FeedCursorCodec(secret: dependencies.secret), now: now,
        orderByRandomBaseline: configuration.benchmarkBaselines ? dependencies.orderByRandomBaseline : nil
    )
    feed.register(routes("feed"))
    feed.registerBaseline(routes("benchmark"))
    SearchController(
        search: dependencies.search, social: dependencies.social, presenter: presenter,
        cursors: SearchCursorCodec(secret: dependencies.secret), encodedItems: feed.encodedItems, now: now
    )
    .register(routes("search"))
    CatalogController(
        catalog: dependencies.catalog, social: dependencies.social, presenter: presenter,
        cursors: CatalogCursorCodec(secret: dependencies.secret), encodedItems: feed.encodedItems,
        resume: configuration.resumeRule, collectionShelves: CollectionController.shelves(dependencies.collections), now: now
    )
    .register(routes("catalog"))
    CollectionController(
        collections: dependencies.collections, catalog: dependencies.catalog, social: dependencies.social, presenter: presenter,
        cursors: CatalogCursorCodec(secret: dependencies.secret), encodedItems: feed.encodedItems, resume: configuration.resumeRule, now: now
    )
    .register(routes("collections"))
    VideoController(
        library: dependencies.library, grants: dependencies.libraries, collections: dependencies.collections, social: dependencies.social,
        storage: dependencies.storage, sources: dependencies.sources, presenter: presenter, now: now
    )
        .register(routes("videos"))
    StoriesController(
        stories: dependencies.stories,
        removal: PostRemoval(library: dependencies.library, storage: dependencies.storage, sources: dependencies.sources),
        presenter: StoryPresenter(videos: presenter, photoSeconds: configuration.storyPhotoSeconds),
        cursors: StoryCursorCodec(secret: dependencies.secret), now: now
    )
    .register(routes("stories"))
    EventsController(events: dependencies.events, limiter: limiter, retention: configuration.eventRetention, now: now)
        .register(routes("events"))
    HistoryController(
        events: dependencies.events, social: dependencies.social, presenter: presenter,
        cursors: ProfileListCursorCodec(secret: dependencies.secret), now: now
    )
    .register(routes("me"))
    LibraryController(social: dependencies.social, presenter: presenter, resume: configuration.resumeRule, now: now)
        .register(routes("library"))
    LibrariesController(libraries: dependencies.libraries, accounts: dependencies.accounts, now: now)
        .register(routes("libraries"))
    JobController(
        jobs: dependencies.jobs, library: dependencies.library, grants: dependencies.libraries, generations: dependencies.generations?.store,
        uploads: dependencies.uploads?.storage, activity: dependencies.jobActivity, now: now,
        streams: EventStreamSlots(perUser: configuration.eventStreamsPerUser, lifetime: .seconds(configuration.eventStreamLifetimeSeconds))
    )
    .register(routes("jobs"))
    if let uploads = dependencies.uploads {
        UploadController(dependencies: uploads, libraries: dependencies.libraries, activity: dependencies.jobActivity, now: now).register(routes("uploads"))
    }
    let media = MediaController(library: dependencies.library, storage: dependencies.storage, tokens: tokens, images: images, access: mediaAccess, now: now)
    media.register(routes("media"))
    // nginx's auth_request (`reelhouse edge nginx`): the same checks, and the same ready-post memory.
    MediaAuthController(check: media.check, storage: dependencies.storage).register(routes("edge"))
    if let generations = dependencies.generations {
        GenerationController(dependencies: generations, limiter: limiter, configuration: configuration, now: now)
            .register(routes("generations"))
    }
    if configuration.compatRoutes {
        CompatMediaController(library: dependencies.library, grants: dependencies.libraries, storage: dependencies.storage, keyScheme: configuration.compatKeyScheme, now: now)
            .register(routes("compat"))
    }
    return (router, registry)
}

/// Headers every response carries.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.init("x-content-type-options")!] = "nosniff"
        response.headers[.init("referrer-policy")!] = "same-origin"
        return response
    }
}

/// Applies the operator's `maxBodyBytes` to every request's in-memory body reads.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let maxBodyBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.maxBodyBytes = maxBodyBytes
        return try await next(request, context)
    }
}
