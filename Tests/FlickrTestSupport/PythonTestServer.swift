import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking // the tests' control requests
#endif
import XCTest

/// One of the Python test servers in `Server/` run as a real process on a free port: started with `--port 0
/// --exit-on-stdin-eof`, known by the port it prints first, ended by closing its stdin.
public final class PythonTestServer: @unchecked Sendable {
    public let port: Int
    /// For the tests' requests to the server's controls (fault injection, its request log).
    public let control: URLSession
    private let process: Process
    private let input: Pipe

    /// Starts `script` with `arguments` after the port options, and waits for the port it prints.
    public init(script: String, arguments: [String]) throws {
        guard let folder = Bundle.module.url(forResource: "Server", withExtension: nil) else {
            throw XCTSkip("Server resources missing from the test bundle")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", folder.appendingPathComponent(script).path, "--port", "0",
                             "--exit-on-stdin-eof"] + arguments
        let output = Pipe()
        input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()

        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // EOF: the server died before printing its port
            line.append(chunk)
        }
        guard let text = String(data: line, encoding: .utf8)?.split(separator: "\n").first,
              let port = Int(text.trimmingCharacters(in: .whitespaces)) else {
            process.terminate()
            throw NSError(domain: "PythonTestServer", code: 1,
                          userInfo: [NSLocalizedDescriptionKey: "\(script) did not print its port"])
        }
        self.port = port
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        control = URLSession(configuration: configuration)
    }

    /// Ends the server. Polls rather than `waitUntilExit()`, which needs a run loop and can hang when
    /// called from a task.
    public func stop() {
        try? input.fileHandleForWriting.close()  // the server exits on stdin EOF…
        if process.isRunning { process.terminate() }  // …and on SIGTERM
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        control.invalidateAndCancel()
    }
}
