import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A misbehaving On the Map service on 127.0.0.1, in the test process: every `GET …/StudentLocation` gets a list of
/// `entries` entries whatever the query asked, its body ending when the connection closes, sent at `bytesPerSecond`;
/// it counts the body bytes that got out before the client hung up. Other paths get 404.
///
/// Plain sockets, not the real server: no real server sends more than asked for, and the pace and the count of
/// bytes sent are what the tests measure.
final class FloodingServer: Sendable {
    let port: Int
    private let listener: Int32
    private let state: Mutex<State>
    private let entry: @Sendable (Int) -> String

    private struct State {
        var entries: Int
        var bytesSent = 0
    }

    /// `entry(index)` is one entry's JSON; `bytesPerSecond` paces the body, so that a client's stopping early shows
    /// over loopback (where 60 MB takes a fifth of a second).
    init(entries: Int, bytesPerSecond: Int = 50_000_000, entry: @escaping @Sendable (Int) -> String) throws {
        state = Mutex(State(entries: entries))
        self.entry = entry
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        guard listener >= 0, bound else { throw LiveServerError("The flooding server couldn't listen on 127.0.0.1.") }
        port = Int(UInt16(bigEndian: address.sin_port))
        let pace = bytesPerSecond
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return } // stop() closed the listener
                Thread.detachNewThread { self.answer(connection, bytesPerSecond: pace) }
            }
        }
    }

    var apiURL: URL { URL(string: "http://127.0.0.1:\(port)/v1/")! }

    /// Body bytes written to clients so far.
    var bytesSent: Int { state.withLock { $0.bytesSent } }

    /// Lists `count` entries from the next request on.
    func setEntries(_ count: Int) { state.withLock { $0.entries = count } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func answer(_ connection: Int32, bytesPerSecond: Int) {
        defer { close(connection) }
        var request = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.contains("\r\n\r\n".utf8) {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            request.append(contentsOf: buffer[..<count])
        }
        let requestLine = String(decoding: request.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        guard requestLine.hasPrefix("GET "), requestLine.contains("/StudentLocation") else {
            _ = send(connection, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        guard send(connection, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n") else { return }
        let entries = state.withLock { $0.entries }
        var chunk = "{\"results\":["
        for index in 0..<entries {
            chunk += (index == 0 ? "" : ",") + entry(index)
            if chunk.utf8.count >= 64 * 1024 || index == entries - 1 {
                if index == entries - 1 { chunk += "]}" }
                guard send(connection, chunk) else { return }
                state.withLock { $0.bytesSent += chunk.utf8.count }
                usleep(useconds_t(chunk.utf8.count * 1_000_000 / bytesPerSecond))
                chunk = ""
            }
        }
        if entries == 0 { _ = send(connection, chunk + "]}") }
    }

    /// False once the client has hung up.
    private func send(_ connection: Int32, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                // MSG_NOSIGNAL: a client hanging up must not end the test process with SIGPIPE.
                let written = Glibc.send(connection, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }
}
