package dev.rebound.provider;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.transcript.AssistantMessage;
import okhttp3.HttpUrl;
import okhttp3.Request;

/**
 * One wire protocol's part of a streaming call: where the request goes, what it carries and how its reply reads.
 * {@link StreamingCall} does the rest, the same for every protocol (timeouts, aborts, a stale connection's resend,
 * HTTP errors, transport failures, secrets). Implementations are thread-safe; the only state they may keep is what
 * they learned of a server's capabilities ({@link #adjustAfter}).
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

    /**
     * After a call that failed before any content: whether the format learned that the server refuses something it
     * sent that the request can do without (an optional parameter this model or account does not take, an output
     * limit above the model's), and will leave it out from now on for that provider and model. When true, the call is
     * made again at once, invisibly, once: nothing was asked of the model that it could have answered.
     */
    default boolean adjustAfter(ProviderRequest request, AssistantMessage failed) {
        return false;
    }
}
