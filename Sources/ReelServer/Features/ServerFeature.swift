import Foundation
import Hummingbird
import ReelForYou
import ReelStore

/// A part of the server (the feed, stories, uploads, media…) that declares its own routes and
/// settings in one file of its own. `buildRouter` registers `ServerFeatures.standard` in turn,
/// and `ConfigurationSetting.all` gathers their settings types' declarations (config key,
/// environment variable, `serve` flag and help), so a new route or setting edits that
/// feature's file, not the wiring, `ServerConfiguration` or the settings loader.
protocol ServerFeature: Sendable {
    /// The operator settings this feature declares (read as `configuration[Type.self]`); none by default.
    var settings: (any FeatureSettings.Type)? { get }
    func register(in server: FeatureContext)
}

extension ServerFeature {
    var settings: (any FeatureSettings.Type)? { nil }
}

/// What a feature builds its controllers from: the settings, the boundaries, and the parts the
/// features share (one presenter and signer set, one media-access memory, one credential cache,
/// one encoded-item cache for every list of posts, one memory of who has For You by default).
struct FeatureContext {
    let configuration: ServerConfiguration
    let dependencies: ServerDependencies
    let metrics: MetricsRegistry
    let registry: RouteRegistry
    let router: Router<AppRequestContext>
    let credentials: CredentialCache
    let mediaAccess: MediaAccess
    let tokens: MediaTokenSigner
    let images: ImageURLSigner
    let presenter: VideoPresenter
    /// Encoded items shared by every viewer in a token window (the feed's largest cost was
    /// encoding): the feed, search, browse and collections answer from it.
    let encodedItems: EncodedItemCache
    /// Whether For You is a person's default feed: the feed reads it, the event and history
    /// routes forget a person's answer when they change what it was counted from.
    let forYouReadiness: ForYouReadiness

    var limiter: any RateLimitStore { dependencies.rateLimits }
    var now: @Sendable () -> Date { dependencies.now }
    var secret: Data { dependencies.secret }

    /// The routes a feature registers, under its OpenAPI tag.
    func routes(_ tag: String) -> APIRoutes { APIRoutes(router: router, registry: registry, tag: tag) }
}

enum ServerFeatures {
    /// Every feature, in the order its routes are registered (the OpenAPI document's order).
    static let standard: [any ServerFeature] = [
        SystemFeature(), AccountFeature(), FeedFeature(), SearchFeature(), CatalogFeature(), VideoFeature(),
        StoryFeature(), EventFeature(), LibraryFeature(), JobFeature(), UploadFeature(), MediaFeature(),
        GenerationFeature(), CompatFeature(),
    ]
}
