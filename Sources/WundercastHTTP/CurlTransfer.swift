#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CCurl
import WundercastModel
import WundercastPOSIX
import WundercastProviders

/// `curl_global_init` exactly once per process: a Swift global is initialised once, thread-safely.
enum CurlGlobal {
    static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
}

/// One GET on the client's multi handle (``CurlMulti``): the easy handle, its options, and what
/// its callbacks gather (body, final headers, the limits hit).
///
/// Confined to the event loop's thread: made, driven (every callback runs inside
/// `curl_multi_socket_action` on the loop), read and freed there; not `Sendable`. libcurl's
/// callbacks reach it through `CURLOPT_WRITEDATA`/`HEADERDATA`/`PRIVATE` (unretained: the multi's
/// table of transfers holds it while the easy handle is in the multi handle).
final class CurlTransfer {
    /// What one transfer asks for: the hop's URL and headers and the client's settings; made by the
    /// calling task and handed to the event loop, which makes the transfer from it.
    struct Request: Sendable {
        var url: String
        var headers: [String: String]
        var userAgent: String
        var connectTimeoutMilliseconds: Int
        var timeoutMilliseconds: Int
        var maxBodySize: Int
    }

    let request: Request
    /// Where the task awaiting this transfer gets its answer.
    let completion: TransferCompletion
    /// The easy handle, `nil` when libcurl could not make one.
    let easy: UnsafeMutableRawPointer?
    /// Told of each header and body callback, with whether it ran on the loop's thread (tests).
    private let probe: CurlHTTPClient.Probe?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var body: [UInt8] = []
    private var responseHeaders: [String: String] = [:]
    private var bodyTooLarge = false
    private var headerBytes = 0
    private var headersTooLarge = false
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    /// Why libcurl got no socket for a connection: it would have taken one of the
    /// ``WundercastPOSIX/DescriptorReserve`` (or `socket` failed); the transfer's error says so.
    private var socketRefusal: Errno?
    /// The loop it is confined to (asked only by the probe).
    private let loop: EventLoop

    init(_ request: Request, completion: TransferCompletion, loop: EventLoop, probe: CurlHTTPClient.Probe?) {
        self.request = request
        self.completion = completion
        self.loop = loop
        self.probe = probe
        easy = CurlGlobal.initialised ? curl_easy_init() : nil
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    /// The multi handle has let go of the easy handle before (``CurlMulti`` removes it first).
    deinit {
        if let easy { curl_easy_cleanup(easy) }
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// What one transfer got: the response, and for a redirect (301, 302, 303, 307, 308 with a
    /// `Location`) the absolute URL it points to (libcurl's `CURLINFO_REDIRECT_URL`, resolved
    /// against this transfer's URL), not followed.
    struct Outcome: Sendable {
        var response: HTTPResponse
        var redirectURL: String?
    }

    /// The statuses libcurl would follow with `CURLOPT_FOLLOWLOCATION` (a 304 is not one).
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Sets the easy handle's options; a failure is the transfer's answer (nothing was sent).
    func configure() -> WeatherError? {
        guard CurlGlobal.initialised else {
            return .transport(code: Int(CURLE_FAILED_INIT.rawValue), message: "curl_global_init failed")
        }
        guard let easy else {
            return .transport(code: Int(CURLE_FAILED_INIT.rawValue), message: "cannot create a libcurl handle")
        }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            // A line break would smuggle a second header (or a request) into the request.
            guard !(name + value).contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }), !name.isEmpty else {
                return .transport(
                    code: Int(CURLE_BAD_FUNCTION_ARGUMENT.rawValue), message: "invalid request header '\(name)'")
            }
            guard let appended = curl_slist_append(headerList, "\(name): \(value)") else {
                return .transport(code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "out of memory")
            }
            headerList = appended
        }

        let userdata = Unmanaged.passUnretained(self).toOpaque()
        // libcurl copies string options (since 7.17), so Swift's temporary C strings suffice.
        let options: [CURLcode] = [
            ccurl_setopt_string(easy, CURLOPT_URL, request.url),
            ccurl_setopt_string(easy, CURLOPT_USERAGENT, request.userAgent),
            ccurl_setopt_long(easy, CURLOPT_HTTPGET, 1),
            // Redirects are CurlHTTPClient's: one transfer per hop, same origin only, each counted.
            ccurl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0),
            // CURLOPT_PROTOCOLS (a bitmask) is deprecated since 7.85; the _STR forms replace it.
            ccurl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
            // "" offers every encoding libcurl can decode (gzip, deflate, …) and decodes the body.
            ccurl_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""),
            ccurl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, request.connectTimeoutMilliseconds),
            ccurl_setopt_long(easy, CURLOPT_TIMEOUT_MS, request.timeoutMilliseconds),
            // A Content-Length over the cap fails at once with CURLE_FILESIZE_EXCEEDED.
            ccurl_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBodySize)),
            // No SIGALRM-based DNS timeouts: names are resolved by libcurl's threaded resolver
            // (Debian's libcurl 7.88 has AsynchDNS), the loop never waits for them.
            ccurl_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
            // libcurl 7.88 joins the resolver's thread when it gives up on a transfer whose name
            // is still being resolved (a timeout, a removal on cancellation): the loop would wait
            // as long as getaddrinfo does (seconds, with a name server that does not answer).
            // QUICK_EXIT (since 7.87) lets that thread go on alone; it frees its own data when
            // getaddrinfo returns (asyn-thread.c).
            ccurl_setopt_long(easy, CURLOPT_QUICK_EXIT, 1),
            ccurl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)),
            ccurl_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList),
            ccurl_setopt_write_function(easy, CURLOPT_WRITEFUNCTION) { data, size, count, userdata in
                guard let userdata else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
                return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
            },
            ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, userdata),
            ccurl_setopt_write_function(easy, CURLOPT_HEADERFUNCTION) { data, size, count, userdata in
                guard let userdata else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
                return transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
            },
            ccurl_setopt_pointer(easy, CURLOPT_HEADERDATA, userdata),
            // Its sockets are made by the daemon, so that they keep the descriptor reserve: one
            // refused makes libcurl fail the connection (CURLE_COULDNT_CONNECT).
            ccurl_setopt_opensocket_function(easy) { userdata, _, address in
                guard let userdata, let address else { return -1 }  // CURL_SOCKET_BAD
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
                return transfer.openSocket(address.pointee)
            },
            ccurl_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, userdata),
            // The way back from curl_multi_info_read's easy handle to this transfer.
            ccurl_setopt_pointer(easy, CURLOPT_PRIVATE, userdata),
        ]
        if let failed = options.first(where: { $0 != CURLE_OK }) { return transportError(failed) }
        return nil
    }

    /// The answer once libcurl reports the transfer done with `code` (from `CURLMSG_DONE`), read
    /// before the easy handle leaves the multi handle. Any HTTP status is a success here.
    func outcome(_ code: CURLcode) -> Result<Outcome, WeatherError> {
        guard let easy else { return .failure(transportError(CURLE_FAILED_INIT)) }
        guard code == CURLE_OK else { return .failure(transportError(code)) }
        var status = 0
        let info = ccurl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        guard info == CURLE_OK, status > 0 else {
            return .failure(.transport(code: Int(info.rawValue), message: "no HTTP status received"))
        }
        var redirectURL: String?
        if Self.redirectStatuses.contains(status) {
            var target: UnsafeMutablePointer<CChar>?
            if ccurl_getinfo_string(easy, CURLINFO_REDIRECT_URL, &target) == CURLE_OK, let target {
                redirectURL = String(cString: target)  // owned by the handle: copied before cleanup
            }
        }
        return .success(
            Outcome(
                response: CurlHTTPClient.response(
                    status: status, headers: responseHeaders, body: body, now: Double(time(nil))),
                redirectURL: redirectURL))
    }

    private func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        probe?(.body, loop.isCurrent)
        guard body.count + chunk.count <= request.maxBodySize else {
            bodyTooLarge = true
            return 0  // anything but chunk.count: CURLE_WRITE_ERROR
        }
        body.append(contentsOf: chunk)
        return chunk.count
    }

    /// One header line, CRLF included; returns what libcurl must see as handled (less aborts).
    /// A status line starts a new response (`100 Continue`), so only the final response's headers
    /// remain. All lines together are bounded.
    private func receiveHeader(_ line: UnsafeRawBufferPointer) -> Int {
        probe?(.header, loop.isCurrent)
        headerBytes += line.count
        guard headerBytes <= CurlHTTPClient.maxHeaderBytes else {
            headersTooLarge = true
            return 0  // CURLE_WRITE_ERROR
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            responseHeaders = [:]
            return line.count
        }
        guard let colon = text.firstIndex(of: ":") else { return line.count }
        let name = text[..<colon].trimmingWhitespace().lowercased()
        guard !name.isEmpty else { return line.count }
        responseHeaders[name] = text[text.index(after: colon)...].trimmingWhitespace()
        return line.count
    }

    /// A socket for libcurl's connection (`CURLOPT_OPENSOCKETFUNCTION`), or `-1`
    /// (`CURL_SOCKET_BAD`) with the reason kept for the transfer's error.
    private func openSocket(_ address: curl_sockaddr) -> curl_socket_t {
        do throws(Errno) {
            return try DescriptorReserve.socket(
                family: address.family, type: address.socktype, protocol: address.protocol,
                subject: "libcurl's connection")
        } catch {
            socketRefusal = error
            return -1
        }
    }

    private func transportError(_ code: CURLcode) -> WeatherError {
        if (code == CURLE_WRITE_ERROR && bodyTooLarge) || code == CURLE_FILESIZE_EXCEEDED {
            return .tooLarge(limit: request.maxBodySize)
        }
        var message = String(cString: curl_easy_strerror(code))
        if code == CURLE_WRITE_ERROR && headersTooLarge {
            message = "response headers larger than \(CurlHTTPClient.maxHeaderBytes) bytes"
        } else if let socketRefusal, code == CURLE_COULDNT_CONNECT {
            message += ": no socket: \(socketRefusal)"
        } else {
            let detail = String(cString: errorBuffer).trimmingWhitespace()
            if !detail.isEmpty && detail != message { message += ": " + detail }
        }
        // Queries go first; nothing is cut here: the text is bounded by libcurl's buffer
        // (CURL_ERROR_SIZE) and its short strerror text, and a cut before the provider's
        // redaction (RedactingHTTPClient) could leave a key's first part where no redaction
        // finds it. Control characters and the 200-character bound come with
        // ``WeatherError/message``, after the redaction.
        return .transport(code: Int(code.rawValue), message: CurlHTTPClient.redactingQueries(message))
    }
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[start...end])
    }
}
