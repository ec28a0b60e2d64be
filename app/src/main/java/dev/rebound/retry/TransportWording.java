package dev.rebound.retry;

import java.util.List;
import java.util.Optional;

/**
 * The wording of transport failures as HTTP stacks print them, for failures that reach Rebound as text with no HTTP
 * status: an error object inside a stream, an exception a proxy or gateway passed through verbatim, a wrapped error.
 * Each pattern is written for a family of wordings, not one sentence; the families and their sources (Python httpx,
 * aiohttp, requests/urllib3; Node undici, fetch and node-fetch; Go net/http; the JDK and OkHttp; curl; the SDKs and
 * agents that wrap them) are in {@code docs/classifier.md}.
 *
 * <p>Certificate failures are not here: they look like connection failures but no retry fixes them, and
 * {@link TextRules} checks them first.
 */
final class TransportWording {
    private static final List<NamedPattern> PATTERNS = List.of(
            NamedPattern.of(
                    "connection-refused",
                    "connection refused|\\bECONNREFUSED\\b|actively refused|refused (?:to connect|the connection)"
                            + "|\\[Errno (?:111|61|10061)\\]"),
            NamedPattern.of(
                    "connection-reset",
                    "connection (?:was |has been )?reset|reset by (?:peer|server|remote)|\\bECONNRESET\\b"
                            + "|ConnectionResetError|\\[Errno (?:104|54|10054)\\]|forcibly closed by the remote host"
                            + "|Recv failure"),
            NamedPattern.of(
                    "connection-aborted",
                    "connection (?:was )?aborted|\\bECONNABORTED\\b|ConnectionAbortedError|software caused connection "
                            + "abort"),
            NamedPattern.of(
                    "connection-closed",
                    "connection (?:was |has been )?(?:closed|terminated|dropped|lost|interrupted|broken|shut ?down)"
                            + "|closed (?:the |its )?connection|(?:peer|remote (?:end|host|side|peer)|other side|server)"
                            + " (?:has )?(?:closed|hung up|disconnected|dropped)|\\bdisconnected (?:unexpectedly|before"
                            + "|without|while|during|mid)|RemoteDisconnected|ServerDisconnected|premature(?:ly)? "
                            + "(?:close|closed|end)|ended prematurely|transport connection broken|use of closed network "
                            + "connection|closed idle connection|connection (?:closed|lost) mid-response|ClosedChannelException"
                            + "|client connection is closing|transport is closing|connection (?:to (?:the )?\\S+ )?was lost"
                            + "|transfer closed with \\d+ bytes remaining|was not closed cleanly|connection closed before"
                            + "|^(?:Error: )?aborted$|\\bError: aborted\\b"),
            NamedPattern.of(
                    "connect-failure",
                    "(?:failed|unable|cannot|can't|could not|couldn't) (?:to )?(?:connect|reach|establish (?:a |the )?"
                            + "(?:new )?connection)|connect(?:ion)? (?:error|failure|failed)|all connection attempts "
                            + "failed|connect call failed|ConnectError|ConnectException|APIConnectionError"
                            + "|ClientConnectorError|NewConnectionError|No connection could be made"
                            + "|Max retries exceeded with url|error (?:trying to connect|communicating with)"
                            + "|error sending request|do request failed|(?:dial|read|write) tcp\\b|failed to open stream"
                            + "|HTTP request failed|TypeError: Load failed"),
            NamedPattern.of(
                    "socket",
                    "socket (?:hang ?up|closed|error|disconnected|was closed|connection (?:was )?closed)"
                            + "|unexpected socket close|SocketError|SocketException|\\bUND_ERR_(?:SOCKET|CLOSED|"
                            + "CONNECT_TIMEOUT|HEADERS_TIMEOUT|BODY_TIMEOUT)\\b|ERR_SOCKET_"),
            NamedPattern.of(
                    "incomplete-body",
                    "incomplete (?:chunked )?read|IncompleteRead|ChunkedEncodingError|InvalidChunkLength"
                            + "|payload is not completed|ClientPayloadError|ContentLengthError|TransferEncodingError"
                            + "|without sending (?:a )?complete (?:message )?body|unexpected end of (?:stream|file|input"
                            + "|data|body|JSON input)|unexpected EOF|EOFException|\\bEOF\\b|end of stream|header parser "
                            + "received no bytes|\\\\n not found|ERR_INCOMPLETE_CHUNKED_ENCODING|IncompleteMessage"
                            + "|closed before (?:response\\.completed|a finish_reason|the (?:response|reply|message) "
                            + "(?:was )?complete)|\\bstream (?:failed|ended|aborted|interrupted|closed unexpectedly)\\b"),
            NamedPattern.of(
                    "no-response",
                    "(?:empty|no) (?:reply|response) from (?:the )?(?:server|upstream|host)|without (?:sending |"
                            + "returning )?(?:a |any )?response|(?:server|upstream|host) (?:did not|didn't) (?:send|"
                            + "return) (?:a |any )?response|ended without sending any chunks|no (?:chunks|bytes|data) "
                            + "(?:were |was )?received|received no (?:bytes|data|response)|got no response"
                            + "|no response (?:was )?received|request ended without|(?:did not|didn't|failed to) respond in "
                            + "time|(?:backends?|servers?|upstreams?) (?:\\w+ )?responded in time"),
            NamedPattern.of(
                    "http2-stream-reset",
                    "RST_STREAM|stream (?:was )?reset|GOAWAY|stream error: stream ID|REFUSED_STREAM"
                            + "|StreamResetException|ConnectionShutdownException|\\bhttp2: |HTTP2 framing layer"),
            NamedPattern.of(
                    "network",
                    "network (?:error|is (?:unreachable|down)|connection (?:was )?lost|changed|failure|request failed)"
                            + "|NetworkError|net::ERR_|\\bERR_NETWORK\\b|\\bE(?:HOSTUNREACH|NETUNREACH|NETDOWN"
                            + "|HOSTDOWN|PIPE|TIMEDOUT|SOCKETTIMEDOUT|AI_AGAIN|NOTFOUND|CONNRESET)\\b|no route to host"
                            + "|host is unreachable|broken pipe|\\[Errno (?:32|110|-2|-3|-5|8|11001)\\]"
                            + "|getaddrinfo|name or service not known|nodename nor servname|failure in name resolution"
                            + "|no such host|(?:could not|cannot|can't|failed to|unable to) resolve|UnknownHostException"
                            + "|hostname could not be found"),
            NamedPattern.of(
                    "tls-handshake",
                    "TLS handshake (?:timeout|timed out|eof|failed)|SSL handshake (?:failed|timeout|timed out)"
                            + "|before secure TLS connection was established|SSLEOFError|UNEXPECTED_EOF_WHILE_READING"
                            + "|EOF occurred in violation of protocol|terminated the handshake"));

    private TransportWording() {}

    /** The name of the transport-failure family the text speaks of, if any. */
    static Optional<String> match(String text) {
        return NamedPattern.firstIn(PATTERNS, text);
    }
}
