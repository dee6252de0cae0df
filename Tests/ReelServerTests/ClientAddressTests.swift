import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
@testable import ReelServer
import Testing

@Suite("Client address behind a trusted proxy")
struct ClientAddressTests {
    @Test func forwardedForIsBelievedOnlyFromTrustedPeersAndFromTheRight() {
        let trusted: Set = ["127.0.0.1", "10.9.9.9"]
        // Not a trusted peer: its header is anyone's to write.
        #expect(ClientAddress.resolve(peer: "203.0.113.5", forwardedFor: ["198.51.100.1"], trusted: trusted) == "203.0.113.5")
        // The edge appended the client; whatever the client wrote itself stays on the left.
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: ["1.2.3.4, 198.51.100.7"], trusted: trusted) == "198.51.100.7")
        // Two proxies in a row (a CDN, then the edge), across two header lines.
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: ["198.51.100.7", "10.9.9.9"], trusted: trusted) == "198.51.100.7")
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: ["2001:db8::1"], trusted: trusted) == "2001:db8::1")
        // No header, only proxies, or a hop that is no address: the peer itself.
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: [], trusted: trusted) == "127.0.0.1")
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: ["10.9.9.9"], trusted: trusted) == "127.0.0.1")
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: ["<script>"], trusted: trusted) == "127.0.0.1")
        #expect(ClientAddress.trustedSet(" 127.0.0.1, ,10.9.9.9 ") == trusted)
    }

    func wrongLogins(trustedProxies: String) async throws -> (sameClient: HTTPResponse.Status, otherClient: HTTPResponse.Status) {
        let server = try await TestServer {
            $0.loginAttemptsPerIP = 2
            $0.loginAttemptsPerAccount = 100
            $0.trustedProxies = trustedProxies
        }
        return try await server.application().test(.live) { client in
            func attempt(from address: String) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: "/api/v1/session", method: .post,
                    headers: [.contentType: "application/json", ClientAddress.forwardedFor: address],
                    body: ByteBuffer(string: #"{"username":"member","password":"wrong-password"}"#)
                ).status
            }
            for _ in 0..<2 { #expect(try await attempt(from: "198.51.100.1") == .unauthorized) }
            return (try await attempt(from: "198.51.100.1"), try await attempt(from: "198.51.100.2"))
        }
    }

    @Test func behindTheEdgeEachClientHasItsOwnLoginLimit() async throws {
        let behindEdge = try await wrongLogins(trustedProxies: "127.0.0.1")
        #expect(behindEdge.sameClient == .tooManyRequests)
        #expect(behindEdge.otherClient == .unauthorized)
        // Untrusted (the default): the header is ignored, and every request is the peer's.
        let direct = try await wrongLogins(trustedProxies: "")
        #expect(direct.sameClient == .tooManyRequests)
        #expect(direct.otherClient == .tooManyRequests)
    }
}
