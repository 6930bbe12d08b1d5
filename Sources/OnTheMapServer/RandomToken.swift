import Crypto
import Foundation

/// Unguessable identifiers from the system's CSPRNG (`SystemRandomNumberGenerator` reads getrandom(2)).
enum RandomToken {
    private static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// 256 bits as base64url without padding (43 characters): session ids and XSRF tokens.
    static func secret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A location's id: 10 letters and digits, as Parse made them.
    static func objectId() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<10).map { _ in alphanumerics.randomElement(using: &generator)! })
    }

    /// An account key: 16 digits, the shape (if not the length) of Udacity's numeric keys.
    static func accountKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<16).map { index in
            Character(String(index == 0 ? Int.random(in: 1...9, using: &generator)
                                        : Int.random(in: 0...9, using: &generator)))
        })
    }

    /// What the store keeps of a session id: its SHA-256, hex.
    static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Compares tokens in time independent of where they differ.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8), right = Array(b.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
