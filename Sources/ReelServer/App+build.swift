import Foundation
import Hummingbird
import Logging
import ReelForYou
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
    buildRouter(configuration: configuration, dependencies: dependencies, metrics: metrics, features: ServerFeatures.standard)
}

func buildRouter(
    configuration: ServerConfiguration, dependencies: ServerDependencies, metrics: MetricsRegistry, features: [any ServerFeature]
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
    // Sign-in and media access are every feature's: their settings are read here, once.
    let (account, media) = (configuration[AccountSettings.self], configuration[MediaSettings.self])
    router.add(middleware: ClientAddressMiddleware(trusted: ClientAddress.trustedSet(account.trustedProxies)))
    let credentials = CredentialCache(ttl: TimeInterval(account.credentialCacheSeconds))
    router.add(middleware: AuthMiddleware(
        accounts: dependencies.accounts, limiter: limiter, apiLimiter: BatchedRateLimitStore(shared: limiter), cache: credentials,
        settings: account, now: now
    ))
    router.add(middleware: CrossSiteWriteMiddleware())
    let mediaAccess = MediaAccess(
        accounts: dependencies.accounts, grants: dependencies.libraries, lifetime: TimeInterval(media.mediaAccessCacheSeconds)
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
        secret: dependencies.secret, windowSeconds: media.mediaTokenWindowSeconds, marginSeconds: media.mediaTokenMarginSeconds
    )
    let images = ImageURLSigner(secret: dependencies.secret)
    let server = FeatureContext(
        configuration: configuration, dependencies: dependencies, metrics: metrics, registry: registry, router: router,
        credentials: credentials, mediaAccess: mediaAccess, tokens: tokens, images: images,
        presenter: VideoPresenter(tokens: tokens, images: images), encodedItems: EncodedItemCache(),
        forYouReadiness: ForYouReadiness(source: dependencies.forYou, now: now)
    )
    // Each feature registers its own routes (Features/): a new route edits its feature, not this file.
    for feature in features { feature.register(in: server) }
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
