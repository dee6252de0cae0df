/// Seed 000's media routes (`/videos/…`: playlists and segments its player fetches without credentials), when the setting turns them on.
struct CompatFeature: ServerFeature {
    var settings: (any FeatureSettings.Type)? { CompatSettings.self }

    func register(in server: FeatureContext) {
        guard server.configuration[CompatSettings.self].compatRoutes else { return }
        let dependencies = server.dependencies
        CompatMediaController(
            library: dependencies.library, grants: dependencies.libraries, storage: dependencies.storage,
            keyScheme: server.configuration[CompatSettings.self].compatKeyScheme, now: server.now
        )
        .register(server.routes("compat"))
    }
}

/// Seed 000's routes (`/api/feed/random`, `/videos/{folder}/index.m3u8`…), off unless a seed
/// 000 client is used: their playlists and encrypted segments are served without credentials
/// (the key route checks the caller's libraries).
public struct CompatSettings: FeatureSettings {
    public var compatRoutes = false
    /// The custom URL scheme seed 000's resource loader intercepts for key requests.
    public var compatKeyScheme = "lockdown"

    public init() {}

    public static let declarations: [ConfigurationSetting] = [
        .init("compatRoutes", .boolean, env: "REELHOUSE_COMPAT_ROUTES", example: "true",
              "Serve seed 000's compatibility routes (/api/feed/random, /videos/…): their playlists and encrypted segments need no credentials."),
        .init("compatKeyScheme", .text, env: "REELHOUSE_COMPAT_KEY_SCHEME", example: "vault",
              "URL scheme of key URIs in compatibility playlists."),
    ]

    public func validate() throws(ConfigurationError) {
        let scheme = compatKeyScheme
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
              !["http", "https"].contains(scheme.lowercased())
        else {
            throw ConfigurationError("compatKeyScheme must be a custom URL scheme such as lockdown (not http or https)")
        }
    }
}
