import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// The store's connection pool, which it can replace with a fresh one.
///
/// postgres-nio's `PostgresClient` retries a server that refuses connections with an
/// exponential backoff that grows to a minute and cannot be configured, so a pool that saw the
/// server go away may sleep for seconds after it is back. When the store's own probe finds the
/// server again (`PostgresAvailability`), it asks for a new pool instead, which connects at once;
/// the old one is shut down, failing whatever still waited in it.
///
/// `run()` hosts every pool's background work, one after another.
final class PostgresPool: @unchecked Sendable {
    private let configuration: PostgresClient.Configuration
    private let logger: Logger
    private let lock = NSLock()
    private var current: PostgresClient
    /// Each pool handed to `run()`, with the signal that retires it.
    private let started: AsyncStream<(PostgresClient, AsyncStream<Void>)>
    private let start: AsyncStream<(PostgresClient, AsyncStream<Void>)>.Continuation
    private var retireCurrent: AsyncStream<Void>.Continuation

    init(configuration: PostgresClient.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        (started, start) = AsyncStream.makeStream()
        current = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let (retired, retire) = AsyncStream<Void>.makeStream()
        retireCurrent = retire
        start.yield((current, retired))
    }

    var client: PostgresClient { lock.withLock { current } }

    /// Puts a new pool in place of the current one, which is shut down.
    func renew() {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let (retired, retire) = AsyncStream<Void>.makeStream()
        let previous = lock.withLock {
            current = client
            defer { retireCurrent = retire }
            return retireCurrent
        }
        start.yield((client, retired))
        previous.finish()
        logger.info("postgres: the server answers again; new connection pool")
    }

    /// Runs each pool until it is retired, the task is cancelled or the service group shuts down.
    func run() async {
        await cancelWhenGracefulShutdown { await self.runPools() }
    }

    private func runPools() async {
        await withDiscardingTaskGroup { group in
            for await (client, retired) in started {
                group.addTask {
                    await withTaskGroup(of: Void.self) { pool in
                        pool.addTask { await client.run() }
                        for await _ in retired {}
                        pool.cancelAll()
                    }
                }
            }
        }
    }
}
