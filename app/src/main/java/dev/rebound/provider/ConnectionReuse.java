package dev.rebound.provider;

import java.net.InetSocketAddress;
import java.net.Proxy;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.EventListener;

/**
 * What one HTTP call did with its connection, to tell a request that never reached the server from one that did. A
 * server may close a kept-alive connection while it is idle (Node's default after 5 s, many proxies sooner); OkHttp
 * checks an idle connection's health before a POST only after 10 s, so the next request goes out on the closed
 * connection and fails before any byte of a response. Such a request was lost by the connection, not refused by the
 * server, and may be sent again.
 */
public final class ConnectionReuse extends EventListener {
    private volatile boolean connected;
    private volatile boolean acquired;
    private volatile boolean responseStarted;

    @Override
    public void connectStart(Call call, InetSocketAddress address, Proxy proxy) {
        connected = true;
    }

    @Override
    public void connectionAcquired(Call call, Connection connection) {
        acquired = true;
    }

    @Override
    public void responseHeadersStart(Call call) {
        responseStarted = true;
    }

    /**
     * Whether the call failed on a pooled connection it reused, before any byte of a response: the server never
     * answered on it, so sending the request again on a fresh connection cannot duplicate an answer the user saw.
     */
    public boolean lostOnAReusedConnection() {
        return acquired && !connected && !responseStarted;
    }
}
