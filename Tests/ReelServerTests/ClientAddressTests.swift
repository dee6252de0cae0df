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
            $0[AccountSettings.self].loginAttemptsPerIP = 2
            $0[AccountSettings.self].loginAttemptsPerAccount = 100
            $0[AccountSettings.self].trustedProxies = trustedProxies
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

    /// The OWASP rule: limits per (account, address) and per address, and an account backstop
    /// that never refuses a correct password from an address with no failures, so a stranger's
    /// 30 wrong passwords for `owner` do not lock the owner out.
    @Test func aStrangerCannotLockTheOwnerOut() async throws {
        let server = try await TestServer {
            $0[AccountSettings.self].loginAttemptsPerIP = 1000
            $0[AccountSettings.self].loginAttemptsPerAccount = 5
            $0[AccountSettings.self].loginFailuresPerAccount = 20
            $0[AccountSettings.self].trustedProxies = "127.0.0.1"
        }
        try await server.application().test(.live) { client in
            func attempt(_ password: String, from address: String) async throws -> HTTPResponse.Status {
                let answer = try await client.execute(
                    uri: "/api/v1/session", method: .post,
                    headers: [.contentType: "application/json", ClientAddress.forwardedFor: address],
                    body: ByteBuffer(string: #"{"username":"owner","password":"\#(password)"}"#)
                )
                if answer.status == .tooManyRequests {
                    #expect(Int(answer.headers[.retryAfter] ?? "") ?? 0 >= 1, "every 429 says when to retry")
                }
                return answer.status
            }
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<30 { statuses.append(try await attempt("wrong-password", from: "203.0.113.9")) }
            #expect(statuses.prefix(5).allSatisfy { $0 == .unauthorized } && statuses.dropFirst(5).allSatisfy { $0 == .tooManyRequests })
            // The attacker's address is refused even with the right password; the owner's is not.
            #expect(try await attempt(TestServer.password, from: "203.0.113.9") == .tooManyRequests)
            #expect(try await attempt(TestServer.password, from: "198.51.100.7") == .ok)
            // Many addresses, each under its own limit, bring the account to its backstop (5 + 15 = 20)…
            for host in 20..<25 {
                for _ in 0..<3 { #expect(try await attempt("wrong-password", from: "203.0.113.\(host)") == .unauthorized) }
            }
            // …after which an address that failed is refused, and one that never failed still signs in.
            #expect(try await attempt(TestServer.password, from: "203.0.113.20") == .tooManyRequests)
            #expect(try await attempt(TestServer.password, from: "198.51.100.8") == .ok)
        }
    }
}
