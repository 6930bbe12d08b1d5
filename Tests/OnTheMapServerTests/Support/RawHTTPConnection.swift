import Foundation
import XCTest

/// One keep-alive HTTP/1.1 connection over a plain socket, sending exactly the bytes a test writes: the
/// server's list fast path depends on headers (`Connection`) and on pipelining, which URLSession hides.
final class RawHTTPConnection {
    struct Response: Equatable {
        var status: Int
        /// Lower-cased names; the order they came in.
        var headers: [(name: String, value: String)]
        var body: Data

        func header(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }

        static func == (left: Response, right: Response) -> Bool {
            left.status == right.status && left.body == right.body
                && left.headers.map { "\($0.name): \($0.value)" } == right.headers.map { "\($0.name): \($0.value)" }
        }
    }

    let socket: Int32
    private var buffer = Data()

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw ClusterError("Cannot connect to 127.0.0.1:\(port): errno \(errno)") }
    }

    deinit { close(socket) }

    /// A request's bytes: `GET path`, then `headers`, then `body` with its Content-Length.
    static func request(_ path: String, method: String = "GET", headers: [String] = [], body: Data? = nil,
                        version: String = "HTTP/1.1") -> Data {
        var lines = ["\(method) \(path) \(version)", "Host: 127.0.0.1"] + headers
        if let body { lines += ["Content-Type: application/json", "Content-Length: \(body.count)"] }
        return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + (body ?? Data())
    }

    func send(_ bytes: Data) throws {
        let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
        guard sent == bytes.count else { throw ClusterError("send failed: errno \(errno)") }
    }

    /// Sends one request and reads its response.
    func exchange(_ path: String, method: String = "GET", headers: [String] = [], body: Data? = nil) throws -> Response {
        try send(Self.request(path, method: method, headers: headers, body: body))
        return try readResponse()
    }

    /// The next response on the connection (responses carry Content-Length).
    func readResponse() throws -> Response {
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil { try fill() }
        let headEnd = buffer.range(of: separator)!
        let headLines = String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self)
            .components(separatedBy: "\r\n")
        let status = Int(headLines[0].split(separator: " ")[1]) ?? 0
        let headers = headLines.dropFirst().map { line -> (name: String, value: String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]).lowercased(), String(parts[1]).trimmingCharacters(in: .whitespaces))
        }
        let length = Int(headers.first { $0.name == "content-length" }?.value ?? "0") ?? 0
        buffer.removeSubrange(buffer.startIndex..<headEnd.upperBound)
        while buffer.count < length { try fill() }
        let body = Data(buffer.prefix(length))
        buffer.removeFirst(length)
        return Response(status: status, headers: headers, body: body)
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(socket, &chunk, chunk.count, 0)
        guard count > 0 else { throw ClusterError("The server closed the connection or sent nothing for 10 s.") }
        buffer.append(contentsOf: chunk[0..<count])
    }
}

extension RawHTTPConnection {
    /// Whether the server closes the connection within `seconds` (reading nothing more from it).
    func closesWithin(seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, 0) == 0
    }
}
