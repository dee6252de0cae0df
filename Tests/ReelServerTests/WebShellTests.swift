import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import ReelServer
import Testing
import ReelTestFiles

@Suite("The web client's shell")
struct WebShellTests {
    @Test("the shell is public, revalidated, under a strict CSP; nothing outside it or under API paths is read")
    func shell() async throws {
        let web = TemporaryFolder.fresh("reel-web", suffix: "/Web")
        try FileManager.default.createDirectory(at: web.appendingPathComponent("js"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: web.deletingLastPathComponent()) }
        try Data("<!doctype html><title>shell</title>".utf8).write(to: web.appendingPathComponent("index.html"))
        try Data("export {};".utf8).write(to: web.appendingPathComponent("js/app.js"))
        try Data("secret".utf8).write(to: web.deletingLastPathComponent().appendingPathComponent("secret.txt"))
        let server = try await TestServer { $0.webRoot = web.path }
        defer { try? FileManager.default.removeItem(at: server.root) }
        try await server.application().test(.router) { client in
            let index = try await client.send(.get, "/")
            #expect(index.status == .ok && String(decoding: index.body, as: UTF8.self).contains("<title>shell</title>"))
            let csp = try #require(index.headers[.contentSecurityPolicy])
            #expect(csp.contains("script-src 'self'") && csp.contains("media-src 'self' blob:") && csp.contains("frame-ancestors 'none'"))
            #expect(index.headers[.cacheControl]?.contains("no-cache") == true)
            // A reload on one of the app's own URLs gets the shell, under the same policy.
            for path in ["/discover", "/p/12", "/shelf/new"] {
                let deep = try await client.send(.get, path)
                #expect(deep.status == .ok && String(decoding: deep.body, as: UTF8.self).contains("<title>shell</title>"), "\(path)")
                #expect(deep.headers[.contentSecurityPolicy] != nil)
            }
            #expect(try await client.send(.get, "/nowhere").status == .notFound)
            let script = try await client.send(.get, "/js/app.js")
            #expect(script.status == .ok && script.headers[.contentType]?.contains("javascript") == true)
            for path in ["/../secret.txt", "/js/../../secret.txt", "/%2e%2e/secret.txt", "/js/%2F..%2Fsecret.txt", "/secret.txt"] {
                let response = try await client.send(.get, path)
                #expect(response.status != .ok || !String(decoding: response.body, as: UTF8.self).contains("secret"), "\(path)")
            }
            // API paths never fall through to files, and stay behind authentication.
            #expect(try await client.send(.get, "/api/v1/feed").status == .unauthorized)
        }
    }
}

@Suite("The web app's own URLs")
struct WebAppRouteTests {
    @Test("the app's screens and item pages are answered with the shell; anything else is not")
    func appRoutes() {
        for path in ["/discover", "/browse", "/search", "/favorites", "/profile", "/create", "/p/12", "/shelf/tag-3", "/collection/7", "/stories/ana.example", "/stories/pexels-jane_doe"] {
            #expect(WebAppRoute.isAppRoute(path), "\(path)")
        }
        for path in ["/", "/js/app.js", "/p", "/p/", "/p/1/2", "/discover/x", "/shelf/a.b", "/unknown", "/index.html", "/p/\(String(repeating: "1", count: 81))", "/stories", "/stories/", "/stories/a/b", "/stories/..", "/stories/a%20b"] {
            #expect(!WebAppRoute.isAppRoute(path), "\(path)")
        }
    }
}
