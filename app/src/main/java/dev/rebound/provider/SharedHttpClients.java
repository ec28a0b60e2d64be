package dev.rebound.provider;

import java.util.List;
import java.util.concurrent.Executor;
import okhttp3.ConnectionSpec;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * The app's HTTP clients: one connection pool and one dispatcher for every provider, with TLS set up only once an
 * {@code https} URL is called (or {@link #prepareTls} asks for it ahead).
 *
 * <p>Setting up TLS loads the platform's trust store and its security providers, about a quarter of a second of CPU,
 * which a chat with a local server or the built-in simulator never needs. So plain {@code http} URLs go through a
 * client with no TLS at all, built at once, and {@code https} ones through a client derived from it (same pool, same
 * dispatcher), built on first use. A redirect from http to https is not followed there: the caller gets the 3xx (a
 * prompt's call follows no redirect at all, see StreamingCall).
 */
public final class SharedHttpClients implements HttpClientSource {
    private final OkHttpClient cleartext;
    private volatile OkHttpClient tls;

    private SharedHttpClients(OkHttpClient cleartext) {
        this.cleartext = cleartext;
    }

    /** New clients on a new pool; create one per application. */
    public static SharedHttpClients create() {
        return new SharedHttpClients(HttpClients.newSharedBuilder()
                .connectionSpecs(List.of(ConnectionSpec.CLEARTEXT))
                // A redirect from http to https would need TLS mid-call: it comes back to the caller instead.
                .followSslRedirects(false)
                .build());
    }

    /**
     * Like this, but keeping no idle connection, so every request goes out on a fresh one (see {@link
     * HttpClients#unpooled}); the dispatcher is shared.
     */
    public SharedHttpClients unpooled() {
        return new SharedHttpClients(HttpClients.unpooled(cleartext));
    }

    @Override
    public OkHttpClient clientFor(HttpUrl url) {
        return url.isHttps() ? tls() : cleartext;
    }

    /** Sets TLS up now, on {@code executor}: for a configuration whose providers will be called over https. */
    public void prepareTls(Executor executor) {
        if (tls == null) {
            executor.execute(this::tls);
        }
    }

    /** Whether TLS has been set up (for tests and diagnostics). */
    public boolean tlsReady() {
        return tls != null;
    }

    private OkHttpClient tls() {
        OkHttpClient ready = tls;
        if (ready == null) {
            synchronized (this) {
                ready = tls;
                if (ready == null) {
                    ready = cleartext
                            .newBuilder()
                            .connectionSpecs(List.of(ConnectionSpec.MODERN_TLS, ConnectionSpec.CLEARTEXT))
                            .build();
                    tls = ready;
                }
            }
        }
        return ready;
    }

    /** Stops the dispatcher's threads and closes the idle connections, of both clients. */
    public void close() {
        cleartext.dispatcher().executorService().shutdown();
        cleartext.connectionPool().evictAll();
    }
}
