/// Signed media (playlists, segments, keys, images) and the edge's check of the same tokens.
struct MediaFeature: ServerFeature {
    var settings: (any FeatureSettings.Type)? { MediaSettings.self }

    func register(in server: FeatureContext) {
        let dependencies = server.dependencies
        let media = MediaController(
            library: dependencies.library, storage: dependencies.storage, tokens: server.tokens, images: server.images,
            access: server.mediaAccess, now: server.now
        )
        media.register(server.routes("media"))
        // nginx's auth_request (`reelhouse edge nginx`): the same checks, and the same ready-post memory.
        MediaAuthController(check: media.check, storage: dependencies.storage).register(server.routes("edge"))
    }
}

/// Signed media URLs expire at the end of the current window plus the margin, so every client
/// in one window gets the same URL and browser/CDN caches hit. Tests shorten the window to a
/// few seconds (`REELHOUSE_MEDIA_TOKEN_WINDOW=4 REELHOUSE_MEDIA_TOKEN_MARGIN=0`) to watch
/// clients recover from a real expiry.
public struct MediaSettings: FeatureSettings {
    public var mediaTokenWindowSeconds = 3600
    public var mediaTokenMarginSeconds = 900
    /// Seconds a node remembers what a person may see for their media URLs (`MediaAccess`): a
    /// revoked grant or key, a changed password or a removed library ends the URLs already
    /// issued within this time (plus the edge's 30 s); 0 checks on every request.
    public var mediaAccessCacheSeconds = 20

    public init() {}

    public static let declarations: [ConfigurationSetting] = [
        .init("mediaTokenWindowSeconds", .integer, env: "REELHOUSE_MEDIA_TOKEN_WINDOW", example: "600",
              "Signed media URLs are valid until the end of this window…"),
        .init("mediaTokenMarginSeconds", .integer, env: "REELHOUSE_MEDIA_TOKEN_MARGIN", example: "60", "…plus this margin."),
        .init("mediaAccessCacheSeconds", .integer, env: "REELHOUSE_MEDIA_ACCESS_CACHE_SECONDS", example: "0",
              "How long a node remembers what a person may see for their media URLs (revoking a grant, a key or a password ends issued URLs within this time)."),
    ]

    public func validate() throws(ConfigurationError) {
        // Short windows exist for tests that watch a URL expire; production keeps the hour.
        guard mediaTokenWindowSeconds >= 2 else { throw ConfigurationError("mediaTokenWindowSeconds must be at least 2") }
    }
}
