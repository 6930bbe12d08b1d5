import Foundation
import XCTest

/// A throw-away HTTP server (Python's http.server) that answers every request with one fixed status and body:
/// the broken servers the real one never is (500s, HTML, junk).
final class CannedServer: @unchecked Sendable {
    let port: Int
    private let process: Process
    /// Held open for the server's life: its end tells the server to exit.
    private let lifeline = Pipe()

    private static let script = """
        import http.server, os, signal, sys, threading
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the test process may hand down SIGTERM ignored or blocked
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
        status, body = int(sys.argv[1]), sys.argv[2].encode()
        class Canned(http.server.BaseHTTPRequestHandler):
            def answer(self):
                self.rfile.read(int(self.headers.get('Content-Length') or 0))
                self.send_response(status)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            do_GET = do_POST = do_PUT = do_DELETE = answer
            def log_message(self, *args): pass
        def exit_with_parent():
            sys.stdin.read()  # EOF: the test process ended, even by a crash
            os._exit(0)
        threading.Thread(target=exit_with_parent, daemon=True).start()
        server = http.server.HTTPServer(('127.0.0.1', 0), Canned)
        print(server.server_port, flush=True)
        server.serve_forever()
        """

    /// Starts the server; it prints the port it bound before it accepts connections.
    init(status: Int, body: String) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, String(status), body]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = lifeline
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw LiveServerError("The canned server didn't start (is python3 installed?).")
        }
        self.port = port
    }

    var apiURL: URL { URL(string: "http://127.0.0.1:\(port)/v1/")! }

    func stop() {
        try? lifeline.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }
}
