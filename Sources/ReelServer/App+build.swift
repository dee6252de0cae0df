import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// Wires the server once: middleware, controllers, services. Everything it talks to comes in
/// through `ServerDependencies`, so tests build the same application on a throw-away library.
public func buildApplication(
    configuration: ServerConfiguration, dependencies: ServerDependencies, services: [any Service] = [],
    metrics: MetricsRegistry = MetricsRegistry(), logger: Logger
) -> some ApplicationProtocol {
    let (router, _) = buildRouter(configuration: configuration, dependencies: dependencies, metrics: metrics)
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "reelhouse"),
        services: services,
        logger: logger
    )
}

/// The router and the list of routes it serves (for the OpenAPI document and its test).
public func buildRouter(
    configuration: ServerConfiguration, dependencies: ServerDependencies, metrics: MetricsRegistry = MetricsRegistry()
) -> (Router<AppRequestContext>, RouteRegistry) {
    let router = Router(context: AppRequestContext.self)
    let registry = RouteRegistry()
    let limiter = RateLimiter()
    let now = dependencies.now

    router.add(middleware: MetricsMiddleware(registry: metrics))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: AuthMiddleware(accounts: dependencies.accounts, limiter: limiter, configuration: configuration, now: now))

    let tokens = MediaTokenSigner(
        secret: dependencies.secret, windowSeconds: configuration.mediaTokenWindowSeconds,
        marginSeconds: configuration.mediaTokenMarginSeconds
    )
    let images = ImageURLSigner(secret: dependencies.secret)
    let presenter = VideoPresenter(tokens: tokens, images: images)
    func routes(_ tag: String) -> APIRoutes { APIRoutes(router: router, registry: registry, tag: tag) }

    SystemController(registry: registry, metrics: metrics, jobs: dependencies.jobs, configuration: configuration)
        .register(routes("system"))
    SessionController(accounts: dependencies.accounts, passwords: dependencies.passwords, limiter: limiter, configuration: configuration, now: now)
        .register(routes("session"))
    let feed = FeedController(
        feed: dependencies.feed, social: dependencies.social, presenter: presenter,
        cursors: FeedCursorCodec(secret: dependencies.secret), now: now,
        orderByRandomBaseline: configuration.benchmarkBaselines ? dependencies.orderByRandomBaseline : nil
    )
    feed.register(routes("feed"))
    feed.registerBaseline(routes("benchmark"))
    VideoController(library: dependencies.library, social: dependencies.social, presenter: presenter, now: now)
        .register(routes("videos"))
    LibraryController(social: dependencies.social, jobs: dependencies.jobs, presenter: presenter, now: now)
        .register(routes("library"))
    MediaController(library: dependencies.library, storage: dependencies.storage, tokens: tokens, images: images, now: now)
        .register(routes("media"))
    if configuration.compatRoutes {
        CompatMediaController(library: dependencies.library, storage: dependencies.storage, keyScheme: configuration.compatKeyScheme, now: now)
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
