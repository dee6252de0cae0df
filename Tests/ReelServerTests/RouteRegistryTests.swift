import Testing
@testable import ReelServer

/// `Allow` on a 405 lists the methods of the route the router would pick: a literal segment
/// wins over a parameter, as in Hummingbird's trie.
@Suite("Route registry: methods for a path")
struct RouteRegistryTests {
    static func registry() -> RouteRegistry {
        let registry = RouteRegistry()
        for (method, path) in [
            ("GET", "/api/v1/stories/{username}"), ("POST", "/api/v1/stories/seen"), ("GET", "/api/v1/stories/archive"),
            ("POST", "/api/v1/stories/items/{id}/like"), ("DELETE", "/api/v1/stories/items/{id}/like"),
        ] {
            registry.record(RouteSpec(method: method, path: path, access: .user, summary: "", tag: "stories"))
        }
        return registry
    }

    @Test func aLiteralSegmentWinsOverAParameter() {
        let registry = Self.registry()
        #expect(registry.methods(matching: "/api/v1/stories/seen") == ["POST"])
        #expect(registry.methods(matching: "/api/v1/stories/archive") == ["GET"])
        #expect(registry.methods(matching: "/api/v1/stories/ana") == ["GET"])
        #expect(registry.methods(matching: "/api/v1/stories/items/7/like") == ["DELETE", "POST"])
        #expect(registry.methods(matching: "/api/v1/stories/items/7") == [], "no template that long and short")
        #expect(registry.methods(matching: "/api/v1/nothing") == [])
    }
}
