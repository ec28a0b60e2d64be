package dev.rebound.provider;

import java.util.Objects;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/** Gives the HTTP client to call a URL with (see {@link SharedHttpClients}). */
@FunctionalInterface
public interface HttpClientSource {

    /** The client for a request to {@code url}. */
    OkHttpClient clientFor(HttpUrl url);

    /** One client for every URL. */
    static HttpClientSource of(OkHttpClient client) {
        Objects.requireNonNull(client, "client");
        return url -> client;
    }
}
