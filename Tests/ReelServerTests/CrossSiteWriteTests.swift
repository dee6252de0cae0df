import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReelModels
import ReelStoreSQLite
import Testing
@testable import ReelServer

/// The server, not only `SameSite=Lax`, refuses cross-site writes made with the session cookie:
/// over real HTTP, a write must come from the site's own origin and carry JSON. (The test client
/// sends `Host: localhost`, so the site's origin is `http://localhost`.)
@Suite("Cross-site writes")
struct CrossSiteWriteTests {
    @Test func cookieWritesMustComeFromTheSiteItselfAndCarryJSON() async throws {
        let server = try await TestServer()
        let post = try await server.publishVideo(name: "clip")
        try await server.application().test(.live) { client in
            let login = try await client.send(.post, "/api/v1/session", json: #"{"username":"member","password":"\#(TestServer.password)"}"#)
            let cookie = try #require(login.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            let rating = "/api/v1/videos/\(post.id)/rating"
            func put(_ headers: [(String, String)], body: String = #"{"rating":1}"#) async throws -> (HTTPResponse.Status, String) {
                var fields: HTTPFields = [.cookie: cookie]
                for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
                return try await client.execute(uri: rating, method: .put, headers: fields, body: ByteBuffer(string: body)) { response in
                    (response.status, (try? errorOf(Data(response.body.readableBytesView)).code) ?? "")
                }
            }
            // The issue's probe: text/plain from another site.
            #expect(try await put([("Content-Type", "text/plain"), ("Origin", "https://evil.example")]) == (.forbidden, "forbidden"))
            #expect(try await put([("Content-Type", "application/json"), ("Origin", "https://evil.example")]).0 == .forbidden)
            #expect(try await put([("Content-Type", "application/json"), ("Origin", "null")]).0 == .forbidden)
            #expect(try await put([("Content-Type", "application/json"), ("Sec-Fetch-Site", "same-site")]).0 == .forbidden)
            #expect(try await put([("Content-Type", "application/json"), ("Sec-Fetch-Site", "cross-site"), ("Origin", "http://localhost")]).0 == .forbidden)
            #expect(try await put([("Content-Type", "application/json"), ("Origin", "http://localhost:1")]).0 == .forbidden)
            // Neither header: no browser writes like that.
            #expect(try await put([("Content-Type", "application/json")]).0 == .forbidden)
            // From the site itself, JSON passes; a form's or a beacon's type does not.
            let own = "http://localhost"
            #expect(try await put([("Content-Type", "application/json"), ("Origin", own)], body: #"{"rating":3}"#).0 == .ok)
            #expect(try await put([("Content-Type", "application/json; charset=utf-8"), ("Sec-Fetch-Site", "same-origin")], body: #"{"rating":4}"#).0 == .ok)
            #expect(try await put([("Content-Type", "text/plain"), ("Origin", own)]) == (.unsupportedMediaType, "unsupported_media_type"))
            #expect(try await put([("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "same-origin")]).0 == .unsupportedMediaType)
            #expect(try await put([("Content-Type", "multipart/form-data; boundary=x"), ("Sec-Fetch-Site", "same-origin")]).0 == .unsupportedMediaType)
            // Nothing refused changed the rating (each asked for 1): the last accepted write's 4 stands.
            #expect(try await server.store.viewerStates(userID: server.member.id, postIDs: [post.id])[post.id]?.rating == 4)
            // Reads are not writes; keys are not cookies.
            #expect(try await client.send(.get, "/api/v1/me", headers: [.cookie: cookie, HTTPField.Name("Origin")!: "https://evil.example"]).status == .ok)
            let keyed = try await client.execute(
                uri: rating, method: .put,
                headers: [HTTPField.Name("api-key")!: server.memberKey, .contentType: "application/json", HTTPField.Name("Origin")!: "https://evil.example"],
                body: ByteBuffer(string: #"{"rating":2}"#)
            )
            #expect(keyed.status == .ok)
            // Login CSRF: another site cannot sign a browser in.
            let planted = try await client.send(
                .post, "/api/v1/session", headers: [HTTPField.Name("Origin")!: "https://evil.example"],
                json: #"{"username":"member","password":"\#(TestServer.password)"}"#
            )
            #expect(planted.status == .forbidden)
        }
    }

    @Test func originsAreComparedByHostAndPort() {
        #expect(CrossSiteWriteMiddleware.authority(ofOrigin: "https://Reels.Example:443") == "reels.example")
        #expect(CrossSiteWriteMiddleware.authority(ofOrigin: "http://10.0.0.2:8080") == "10.0.0.2:8080")
        #expect(CrossSiteWriteMiddleware.authority(ofOrigin: "null") == nil)
        #expect(CrossSiteWriteMiddleware.authority(ofOrigin: "https://reels.example/path") == nil)
        #expect(CrossSiteWriteMiddleware.normalized("Reels.Example:443") == "reels.example")
        #expect(CrossSiteWriteMiddleware.normalized("10.0.0.2:8080") == "10.0.0.2:8080")
    }
}
