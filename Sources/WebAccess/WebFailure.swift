import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Translations

/// Why a request failed, in the terms a person can act on, from what AsyncHTTPClient, SwiftNIO or NIOSSL threw.
public enum WebFailure: Error, Equatable, Sendable {
    case cancelled
    /// The request's deadline passed, or a connection or TLS handshake took too long.
    case timedOut
    /// The host name could not be resolved.
    case hostNotFound
    /// The host refused the connection or could not be reached.
    case cannotConnect
    /// No network at all.
    case offline
    /// TLS failed: an untrusted or invalid certificate, or no common protocol.
    case secureConnectionFailed
    /// The body was larger than allowed.
    case tooLarge
    /// The address is not one a request can go to.
    case invalidAddress
    /// Through a proxy, not reaching it or being turned away by it.
    case proxyFailed(ProxySettings.Proxy)
    /// The connection broke, or the answer was not HTTP.
    case connectionLost

    /// Classifies `error`; `proxy` is the proxy the request went through, if any.
    public init(_ error: any Error, proxy: ProxySettings.Proxy? = nil) {
        if let failure = error as? WebFailure {
            self = failure
            return
        }
        if let proxy {
            switch error {
            case let error as HTTPClientError where [.proxyAuthenticationRequired, .invalidProxyResponse,
                                                     .httpProxyHandshakeTimeout, .socksHandshakeTimeout].contains(error):
                self = .proxyFailed(proxy)
                return
            case is NIOConnectionError, is SocketAddressError:
                self = .proxyFailed(proxy)
                return
            case let error as IOError where [ECONNREFUSED, EHOSTUNREACH, ETIMEDOUT].contains(error.errnoCode):
                self = .proxyFailed(proxy)
                return
            default:
                break
            }
        }
        switch error {
        case is CancellationError:
            self = .cancelled
        case let error as HTTPClientError:
            switch error {
            case .cancelled: self = .cancelled
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout,
                 .getConnectionFromPoolTimeout:
                self = .timedOut
            case .invalidURL, .emptyHost, .emptyScheme: self = .invalidAddress
            default: self = .connectionLost
            }
        case let error as NIOConnectionError:
            let nameFailed = error.dnsAError != nil || error.dnsAAAAError != nil
            self = nameFailed && error.connectionErrors.isEmpty ? .hostNotFound : .cannotConnect
        case is SocketAddressError:
            self = .hostNotFound
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED, EHOSTUNREACH, ETIMEDOUT: self = .cannotConnect
            case ENETUNREACH, ENETDOWN: self = .offline
            default: self = .connectionLost
            }
        case ChannelError.connectTimeout:
            self = .timedOut
        case is NIOTooManyBytesError, is ResponseAccumulator.ResponseTooBigError:
            self = .tooLarge
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            self = .secureConnectionFailed
        default:
            self = .connectionLost
        }
    }

    /// No way to the server right now (as opposed to a server that misbehaved).
    public var isConnectivityProblem: Bool {
        switch self {
        case .timedOut, .hostNotFound, .cannotConnect, .offline, .proxyFailed: return true
        default: return false
        }
    }
}

extension WebFailure: CustomStringConvertible {
    /// Said inside other messages ("the connection failed: …"), so it starts in lower case.
    public var description: String {
        switch self {
        // Translators: how a request failed, shown after "the connection failed: " (hence lower case); so are those below.
        case .cancelled: return tr("cancelled")
        case .timedOut: return tr("timed out")
        case .hostNotFound: return tr("no such host name")
        case .cannotConnect: return tr("the server could not be reached")
        case .offline: return tr("no network")
        case .secureConnectionFailed: return tr("no secure connection could be made")
        case .tooLarge: return tr("the answer was too large")
        case .invalidAddress: return tr("not a usable address")
        case .proxyFailed(let proxy):
            // Translators: %@ is a proxy's address, e.g. "proxy.example.org:3128".
            return formatted(tr("the proxy %@ could not be used"), "\(proxy)")
        case .connectionLost: return tr("the connection failed")
        }
    }
}
