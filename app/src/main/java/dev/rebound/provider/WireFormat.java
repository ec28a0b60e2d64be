package dev.rebound.provider;

import com.fasterxml.jackson.databind.ObjectMapper;
import okhttp3.HttpUrl;
import okhttp3.Request;

/**
 * One wire protocol's part of a streaming call: where the request goes, what it carries and how its reply reads.
 * {@link StreamingCall} does the rest, the same for every protocol (timeouts, aborts, a stale connection's resend,
 * HTTP errors, transport failures, secrets). Implementations are stateless.
 */
public interface WireFormat {

    /** The settings name of the api, recorded on every reply ({@code anthropic-messages}). */
    String api();

    /** A base URL as the provider documents it, for error messages ({@code https://api.anthropic.com}). */
    String exampleBaseUrl();

    /** The request's URL under the provider's base URL (already parsed and valid). */
    HttpUrl endpoint(HttpUrl baseUrl, ProviderRequest request);

    /** Adds the body and the authentication headers; the key appears nowhere else. */
    void prepare(Request.Builder builder, ProviderRequest request, ObjectMapper mapper);

    /** A parser for one reply. */
    StreamParser newParser(ProviderRequest request, ReplyBuilder reply, ObjectMapper mapper, ErrorBodies errors);

    /**
     * Called once a reply completed normally, to keep what the server stored of it ({@link ServerConversation}).
     * Nothing by default.
     */
    default void completed(ProviderRequest request, StreamParser parser) {}
}
