package dev.rebound.provider;

import dev.rebound.settings.TimeoutSettings;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;

/**
 * Builds the one {@link OkHttpClient} that every provider shares (one connection pool, one dispatcher), and the per-call
 * variants of it.
 *
 * <p>OkHttp's read, write and call timeouts are off: a streaming reply may legitimately last minutes, so the first-byte
 * and idle limits of {@link TimeoutSettings} are enforced by a {@link StreamWatchdog} instead. No logging interceptor is
 * installed, so request headers (the {@code Authorization} key) are never printed. OkHttp's transparent retry of a
 * failed connection attempt stays on: it only replays a request on a connection that failed before any response byte
 * (a stale pooled connection, a route that refused), which is invisible to the user.
 */
public final class HttpClients {
    private HttpClients() {}

    /** A new client for all providers to share, plain http and TLS; the app uses {@link SharedHttpClients}. */
    public static OkHttpClient newSharedClient() {
        return newSharedBuilder().build();
    }

    /** The settings of the shared client, before it is built. */
    static OkHttpClient.Builder newSharedBuilder() {
        return new OkHttpClient.Builder()
                .connectTimeout(TimeoutSettings.DEFAULTS.connectMs(), TimeUnit.MILLISECONDS)
                .readTimeout(0, TimeUnit.MILLISECONDS)
                .writeTimeout(0, TimeUnit.MILLISECONDS)
                .callTimeout(0, TimeUnit.MILLISECONDS)
                .socketFactory(new NoDelaySocketFactory());
    }

    /**
     * A client like {@code shared} that keeps no idle connection, so every request goes out on a fresh one: for the
     * built-in simulator, whose scripted faults must each reach the user as scripted. (On a kept-alive connection a
     * scripted reset before the response headers would look like a connection the server closed while idle, which
     * is sent again invisibly; see {@link ConnectionReuse}.) Loopback connections cost nothing to open.
     */
    public static OkHttpClient unpooled(OkHttpClient shared) {
        return shared.newBuilder()
                .connectionPool(new okhttp3.ConnectionPool(0, 1, TimeUnit.MILLISECONDS))
                .build();
    }

    /**
     * The shared client with one call's connect timeout. The result shares the pool and dispatcher of {@code shared}, so
     * it is cheap to make per call.
     */
    public static OkHttpClient forCall(OkHttpClient shared, TimeoutSettings timeouts) {
        if (timeouts.connectMs() <= 0 || timeouts.connectMs() == shared.connectTimeoutMillis()) {
            return shared;
        }
        return shared.newBuilder()
                .connectTimeout(timeouts.connectMs(), TimeUnit.MILLISECONDS)
                .build();
    }
}
