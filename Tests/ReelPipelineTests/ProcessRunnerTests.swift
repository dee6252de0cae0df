import Foundation
import ReelProcess
import ReelStorage
import Testing
@testable import ReelPipeline

@Suite("FoundationProcessRunner")
struct ProcessRunnerTests {
    let runner = FoundationProcessRunner()

    @Test func collectsStdoutAndExitCode() async throws {
        let output = try await runner.run("sh", ["-c", "printf 'a\\nb'; exit 3"])
        #expect(output.exitCode == 3)
        #expect(String(decoding: output.stdout, as: UTF8.self) == "a\nb")
    }

    @Test func argumentsAreNeverShellInterpreted() async throws {
        let output = try await runner.run("printf", ["%s", "$(echo pwned); rm -rf /tmp/nothing"])
        #expect(String(decoding: output.stdout, as: UTF8.self) == "$(echo pwned); rm -rf /tmp/nothing")
    }

    @Test func keepsOnlyTheStderrTail() async throws {
        let output = try await runner.run("sh", ["-c", "head -c 20000 /dev/zero | tr '\\0' x >&2; echo END >&2"])
        #expect(output.stderrTail.count == FoundationProcessRunner.stderrTailLimit)
        #expect(output.stderrTail.hasSuffix("END\n"))
    }

    @Test func deliversLinesAsTheyArrive() async throws {
        let lines = LockedLines()
        let output = try await runner.run("sh", ["-c", "echo one; sleep 0.1; echo two; printf three"]) { line in
            lines.append(line)
        }
        #expect(output.succeeded)
        #expect(lines.all == ["one", "two", "three"])
    }

    @Test func missingToolIsAClearError() async throws {
        await #expect(throws: PipelineError.toolMissing("definitely-not-a-tool")) {
            _ = try await runner.run("definitely-not-a-tool", [])
        }
    }

    /// The child would sleep for two minutes; a killed one lets `run` return long before that.
    /// (The bound is half the child's life, not a latency goal: under a loaded CI machine the
    /// return has been seen to take 17 s, and a child left running would take 120.)
    @Test func cancellingTheTaskTerminatesTheChild() async throws {
        let started = ContinuousClock.now
        let task = Task { try await runner.run("sleep", ["120"]) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let result = await task.result
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(throws: CancellationError.self) { try result.get() }
    }
}

final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
