import Foundation
import XCTest

/// A TCP relay on a free loopback port to another port, which a test can take down (every connection closed, new
/// ones refused) and bring back: a database that goes away and returns, without stopping the shared cluster.
/// A small Python program, so the relay never shares the test's threads or event loops.
final class TCPRelay {
    let port: Int
    private let process: Process
    private let control: FileHandle

    init(to target: Int) throws {
        port = try PostgresCluster.freeLoopbackPort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.program, String(port), String(target)]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        control = input.fileHandleForWriting
        try process.run()
        try waitUntil(accepting: true)
    }

    /// Its standard input closing ends it (a signal might be blocked in the test process, and so in the relay).
    deinit {
        try? control.close()
        process.waitUntilExit()
    }

    /// Closes every relayed connection and refuses new ones until `up()`.
    func down() throws {
        control.write(Data("down\n".utf8))
        try waitUntil(accepting: false)
    }

    func up() throws {
        control.write(Data("up\n".utf8))
        try waitUntil(accepting: true)
    }

    private func waitUntil(accepting: Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if Self.accepts(port) == accepting { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw ClusterError("The relay on port \(port) did not become \(accepting ? "reachable" : "unreachable").")
    }

    private static func accepts(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static let program = """
        import socket, sys, threading
        port, target = int(sys.argv[1]), int(sys.argv[2])
        lock, live, state = threading.Lock(), set(), {"listener": None}
        def pipe(a, b):
            try:
                while (data := a.recv(65536)):
                    b.sendall(data)
            except OSError:
                pass
            for s in (a, b):
                try: s.shutdown(socket.SHUT_RDWR)
                except OSError: pass
        def serve(listener):
            while True:
                try: client, _ = listener.accept()
                except OSError: return
                try: server = socket.create_connection(("127.0.0.1", target))
                except OSError: client.close(); continue
                with lock: live.update((client, server))
                threading.Thread(target=pipe, args=(client, server), daemon=True).start()
                threading.Thread(target=pipe, args=(server, client), daemon=True).start()
        def up():
            listener = socket.socket(); listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", port)); listener.listen(128); state["listener"] = listener
            threading.Thread(target=serve, args=(listener,), daemon=True).start()
        def down():
            state["listener"].shutdown(socket.SHUT_RDWR); state["listener"].close()
            with lock:
                for s in live:
                    try: s.shutdown(socket.SHUT_RDWR)
                    except OSError: pass
                live.clear()
        up()
        for line in sys.stdin:
            (down if line.strip() == "down" else up)()
        """
}
