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
    /// Each pool handed to `run()`: the client, the signal that retires it, and the one that
    /// says its `run()` has begun.
    private typealias Started = (client: PostgresClient, retired: AsyncStream<Void>, running: OneShot<Void>)
    private let started: AsyncStream<Started>
    private let start: AsyncStream<Started>.Continuation
    private var retireCurrent: AsyncStream<Void>.Continuation
    private let firstRunning = OneShot<Void>()

    init(configuration: PostgresClient.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        (started, start) = AsyncStream.makeStream()
        current = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let (retired, retire) = AsyncStream<Void>.makeStream()
        retireCurrent = retire
        start.yield((current, retired, firstRunning))
    }

    var client: PostgresClient { lock.withLock { current } }

    /// Returns once the first pool runs (`PostgresStore.withStore` waits for it).
    func firstPoolRuns() async {
        await Self.settle(firstRunning)
    }

    /// Puts a new pool in place of the current one, which is shut down. Returns once the new
    /// one runs: a lease asked of a `PostgresClient` before its `run()` began was seen to wait
    /// for ever.
    func renew() async {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let (retired, retire) = AsyncStream<Void>.makeStream()
        let running = OneShot<Void>()
        start.yield((client, retired, running))
        await Self.settle(running)
        let previous = lock.withLock {
            current = client
            defer { retireCurrent = retire }
            return retireCurrent
        }
        previous.finish()
        logger.info("postgres: the server answers again; new connection pool")
    }

    /// Waits for `running`, then a moment more: the child resolves it just before it calls the
    /// client's `run()`, which marks itself running as it begins.
    private static func settle(_ running: OneShot<Void>) async {
        _ = try? await running.value()
        try? await Task.sleep(for: .milliseconds(10))
    }

    /// Runs each pool until it is retired, the task is cancelled or the service group shuts down.
    func run() async {
        await cancelWhenGracefulShutdown { await self.runPools() }
    }

    private func runPools() async {
        await withDiscardingTaskGroup { group in
            for await (client, retired, running) in started {
                group.addTask {
                    await withTaskGroup(of: Void.self) { pool in
                        pool.addTask {
                            running.resolve(.success(()))
                            await client.run()
                        }
                        for await _ in retired {}
                        pool.cancelAll()
                    }
                }
            }
        }
    }
}
