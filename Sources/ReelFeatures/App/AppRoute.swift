import Foundation
import ReelModels

/// The tabs of the app, as the web app's tab bar has them.
public enum AppTab: String, Sendable, CaseIterable, Hashable {
    case feed, discover, search, create, favorites, profile

    public var title: String {
        switch self {
        case .feed: "Feed"
        case .discover: "Discover"
        case .search: "Search"
        case .create: "Create"
        case .favorites: "Favorites"
        case .profile: "Profile"
        }
    }
}

/// A screen pushed onto a tab, as a value: the one route→view switch lives in the app folder.
/// The same places the web app has URLs for (`/p/ID`, `/shelf/ID`, `/collection/ID`,
/// `/stories/NAME`, `/browse?…`).
public enum AppRoute: Hashable, Sendable {
    case post(Int64)
    case shelf(String)
    case collection(Int64)
    case collectionEditor(Int64)
    case stories(user: String)
    case browse(tags: [String])
}

/// Links that open the app: `reelhouse://p/{id}` from anywhere, and the web app's own
/// `https://HOST/…` links when HOST is the server the app is signed in to.
public enum DeepLink {
    public static func route(for url: URL, server: URL?) -> AppRoute? {
        let parts: [String]
        switch url.scheme?.lowercased() {
        case "reelhouse":
            // reelhouse://p/12: the host is the first part of the path.
            parts = ([url.host].compactMap { $0 } + url.pathComponents.filter { $0 != "/" })
        case "http", "https":
            guard let server, sameOrigin(url, server) else { return nil }
            // A server behind a prefix (https://host/reels/) keeps its prefix out of the route.
            let prefix = server.pathComponents.filter { $0 != "/" }
            let path = url.pathComponents.filter { $0 != "/" }
            guard path.starts(with: prefix) else { return nil }
            parts = Array(path.dropFirst(prefix.count))
        default:
            return nil
        }
        return route(parts, query: URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [])
    }

    static func route(_ parts: [String], query: [URLQueryItem]) -> AppRoute? {
        switch (parts.first, parts.count) {
        case ("p", 2): return Int64(parts[1]).flatMap { $0 > 0 ? .post($0) : nil }
        case ("collection", 2): return Int64(parts[1]).flatMap { $0 > 0 ? .collection($0) : nil }
        case ("shelf", 2):
            let id = parts[1]
            let allowed = id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            return allowed && (1...80).contains(id.count) ? .shelf(id) : nil
        case ("stories", 2): return (1...100).contains(parts[1].count) ? .stories(user: parts[1]) : nil
        case ("browse", 1):
            let tags = query.filter { $0.name == "tags" || $0.name == "tag" }.compactMap(\.value)
                .flatMap { $0.split(separator: ",").map(String.init) }
            return .browse(tags: tags)
        default: return nil
        }
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased() && effectivePort(a) == effectivePort(b)
    }

    static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}
