import Foundation
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelServer
import ReelStore
import ReelStorePostgres
import ReelTestSupport
import Testing

/// "API nodes keep no local state a request depends on": two servers whose limits live in one
/// PostgreSQL database refuse the fourth wrong password wherever it arrives; with the default
/// in-memory limits each node counts only its own.
@Suite("Login limits shared by API nodes through PostgreSQL")
struct SharedRateLimitTests {
    @Test("wrong passwords on two nodes add up to one account limit")
    func twoNodesShareOneLoginLimit() async throws {
        try await withPostgresStore { (first) async throws in
            try await PostgresStore.withStore(url: first.url, poolSize: 2, migrating: false, logger: testLogger) { (second) async throws in
                let refused = try await loginAfterWrongPasswords(nodeA: first, nodeB: second)
                #expect(refused == .tooManyRequests)
            }
        }
        // The control: in-memory limits, one per node, let the same login through.
        let perNode = try await loginAfterWrongPasswords(nodeA: MemoryRateLimitStore(), nodeB: MemoryRateLimitStore())
        #expect(perNode == .ok)
    }

    /// Two wrong passwords on node A, one on node B (limit 3 per account), then the right one
    /// on node B: its status.
    private func loginAfterWrongPasswords(nodeA: any RateLimitStore, nodeB: any RateLimitStore) async throws -> HTTPResponse.Status {
        let configure: (inout ServerConfiguration) -> Void = {
            $0[AccountSettings.self].loginAttemptsPerAccount = 3
            $0[AccountSettings.self].loginAttemptsPerIP = 100
            $0[AccountSettings.self].loginWindowSeconds = 300
        }
        let serverA = try await TestServer(configure: configure)
        let serverB = try await TestServer(configure: configure)
        // PostgreSQL's windows are aligned to the clock: a run that crossed a 5-minute boundary
        // between the wrong passwords and the right one would rightly start a new window (a
        // slow run of this test once did). Every request here is at one moment mid-window.
        let window = 300.0
        let moment = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / window).rounded(.down) * window + window / 2)
        func application(_ server: TestServer, _ limits: any RateLimitStore) -> some ApplicationProtocol {
            var dependencies = server.dependencies
            dependencies.rateLimits = limits
            dependencies.now = { moment }
            return Application(router: buildRouter(configuration: server.configuration, dependencies: dependencies).0)
        }
        let wrong = #"{"username":"member","password":"nope-nope"}"#
        try await application(serverA, nodeA).test(.router) { (client) async throws in
            for _ in 0..<2 { #expect(try await client.send(.post, "/api/v1/session", json: wrong).status == .unauthorized) }
        }
        return try await application(serverB, nodeB).test(.router) { (client) async throws in
            #expect(try await client.send(.post, "/api/v1/session", json: wrong).status == .unauthorized)
            return try await client.send(.post, "/api/v1/session", json: #"{"username":"member","password":"\#(TestServer.password)"}"#).status
        }
    }
}
