package dev.rebound.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.auth.Credential;
import dev.rebound.auth.CredentialStore;
import dev.rebound.json.Json;
import dev.rebound.settings.ProviderApi;
import dev.rebound.ui.settings.model.ConnectionTester;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings window's Test connection: one {@code GET {baseUrl}/models} with the provider's key, the cheapest call
 * every supported API answers, told back as a sentence. The key goes only into its header; no message quotes the
 * response body, so a server echoing the key cannot put it on screen.
 */
final class HttpConnectionTester implements ConnectionTester {
    private static final Logger LOG = LoggerFactory.getLogger(HttpConnectionTester.class);
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String ANTHROPIC_VERSION = "2023-06-01";

    private final Supplier<OkHttpClient> http;
    private final CredentialStore credentials;
    private final ObjectMapper mapper = Json.newMapper();

    HttpConnectionTester(OkHttpClient shared, CredentialStore credentials) {
        this(() -> shared, credentials);
    }

    /** @param shared gives the app's shared client when a test is made (see {@link AppServices}) */
    HttpConnectionTester(Supplier<OkHttpClient> shared, CredentialStore credentials) {
        this.http = () -> shared.get().newBuilder().callTimeout(TIMEOUT).build();
        this.credentials = credentials;
    }

    @Override
    public Result test(String provider, String api, String baseUrl, String typedKey) {
        ProviderApi kind = ProviderApi.fromValue(api);
        if (kind == ProviderApi.SIMULATOR) {
            return new Result(true, "The built-in simulator runs inside Rebound; there is nothing to connect to.");
        }
        if (kind == null) {
            return new Result(false, "Choose the provider's API first.");
        }
        HttpUrl base = baseUrl == null ? null : HttpUrl.parse(baseUrl.strip());
        if (base == null) {
            return new Result(
                    false, "'" + baseUrl + "' is not an http(s) URL; type one like https://api.openai.com/v1.");
        }
        HttpUrl url = modelsUrl(base, kind);
        String key = typedKey;
        String keyNote = "with the key you typed";
        if (key == null) {
            List<Credential> saved = credentials.forProvider(provider);
            key = saved.isEmpty() ? null : saved.getFirst().secret().reveal();
            keyNote = saved.isEmpty()
                    ? "without a key (none is saved for " + provider + ")"
                    : "with the key '" + saved.getFirst().label() + "'";
        }
        Request.Builder request = new Request.Builder().url(url).get();
        if (key != null) {
            if (kind == ProviderApi.ANTHROPIC_MESSAGES) {
                request.header("x-api-key", key).header("anthropic-version", ANTHROPIC_VERSION);
            } else {
                request.header("Authorization", "Bearer " + key);
            }
        }
        try (Response response = http.get().newCall(request.build()).execute()) {
            return outcome(response, url, keyNote);
        } catch (UnknownHostException e) {
            return new Result(
                    false, "Could not find the host " + url.host() + ". Check the base URL and your network.");
        } catch (ConnectException e) {
            return new Result(
                    false,
                    "Could not connect to " + url.host() + ":" + url.port()
                            + " (nothing answered there). Check the base URL, and that the server is running.");
        } catch (InterruptedIOException e) {
            return new Result(false, "No answer from " + url.host() + " within " + TIMEOUT.toSeconds() + " s.");
        } catch (SSLException e) {
            return new Result(false, "The secure connection to " + url.host() + " failed (" + e.getMessage() + ").");
        } catch (IOException e) {
            LOG.info("Test connection to {} failed", url, e);
            return new Result(
                    false,
                    "The connection to " + url.host() + " failed ("
                            + e.getClass().getSimpleName() + "); see the log for details.");
        }
    }

    /** {@code {base}/models}; Anthropic's base URL has no version segment, so {@code /v1/models} there. */
    private static HttpUrl modelsUrl(HttpUrl base, ProviderApi kind) {
        HttpUrl.Builder url = base.newBuilder();
        List<String> segments = base.pathSegments();
        if (!segments.isEmpty() && segments.getLast().isEmpty()) {
            url.removePathSegment(segments.size() - 1);
        }
        boolean versioned = segments.stream().anyMatch(s -> s.matches("v\\d+"));
        if (kind == ProviderApi.ANTHROPIC_MESSAGES && !versioned) {
            url.addPathSegment("v1");
        }
        return url.addPathSegment("models").build();
    }

    private Result outcome(Response response, HttpUrl url, String keyNote) throws IOException {
        int code = response.code();
        if (code == 401 || code == 403) {
            return new Result(
                    false, url.host() + " refused the request " + keyNote + " (HTTP " + code + "). Check the key.");
        }
        if (code == 404) {
            return new Result(
                    false,
                    "Reached " + url.host() + ", but " + url.encodedPath() + " does not exist there "
                            + "(HTTP 404). Check the base URL; OpenAI-compatible servers usually end in /v1.");
        }
        if (!response.isSuccessful()) {
            return new Result(false, url.host() + " answered HTTP " + code + " " + keyNote + ".");
        }
        int models = countModels(response);
        return new Result(
                true,
                "Connected to " + url.host() + " " + keyNote
                        + (models >= 0 ? "; it offers " + models + (models == 1 ? " model." : " models.") : "."));
    }

    /** The number of models a models list names, or -1 when the body is not one. */
    private int countModels(Response response) {
        try {
            JsonNode body = mapper.readTree(response.body().byteStream());
            JsonNode data = body == null ? null : body.get("data");
            return data != null && data.isArray() ? data.size() : -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
