import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// Free TCP ports on 127.0.0.1 for the servers a test starts (the app, PostgreSQL, SeaweedFS).
///
/// Binding port 0 and releasing it is not enough: the kernel hands out the same range
/// (`ip_local_port_range`, 32768–60999 by default) as the source ports of outgoing
/// connections, so between the probe's release and the server's bind one of the many
/// connections a parallel test run makes can take it, and the server fails with "address
/// already in use" (seen in CI). Ports below that range are never given to an outgoing
/// connection, so a port a probe finds free stays free for the server. No port is handed out
/// twice in one process. Tests/pykit/ports.py does the same for the Python suites.
public enum FreePorts {
    static let lowest = 10_000
    private static let handedOut = Mutex<Set<Int>>([])

    /// `count` distinct ports that nothing listens on and no outgoing connection will take.
    public static func take(_ count: Int) async throws -> [Int] {
        let upper = ephemeralStart()
        guard upper - lowest > 1_000 else { throw FreePortsError.noRoom(ephemeralStart: upper) }
        var chosen: [Int] = []
        for _ in 0..<(count * 200) where chosen.count < count {
            let port = Int.random(in: lowest..<upper)
            guard handedOut.withLock({ $0.insert(port).inserted }) else { continue }
            if await isFree(port) { chosen.append(port) }
        }
        guard chosen.count == count else { throw FreePortsError.notFound(wanted: count, found: chosen.count, below: upper) }
        return chosen
    }

    public static func one() async throws -> Int {
        try await take(1)[0]
    }

    private static func isFree(_ port: Int) async -> Bool {
        guard let channel = try? await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: port).get() else { return false }
        try? await channel.close()
        return true
    }

    /// The first port of the kernel's ephemeral range, or Linux's default when it cannot be read.
    private static func ephemeralStart() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
              let first = text.split(whereSeparator: \.isWhitespace).first, let start = Int(first) else { return 32_768 }
        return start
    }
}

public enum FreePortsError: Error, CustomStringConvertible {
    case noRoom(ephemeralStart: Int)
    case notFound(wanted: Int, found: Int, below: Int)

    public var description: String {
        switch self {
        case let .noRoom(start): "the ephemeral port range starts at \(start): no room below it for test servers"
        case let .notFound(wanted, found, below): "found only \(found) of \(wanted) free ports below \(below)"
        }
    }
}
