package dev.rebound.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rebound.auth.Credential;
import dev.rebound.auth.CredentialStore;
import dev.rebound.json.Json;
import dev.rebound.provider.HttpClientSource;
import dev.rebound.provider.RequestExtras;
import dev.rebound.provider.ResponseBodies;
import dev.rebound.provider.anthropic.AnthropicMessagesWire;
import dev.rebound.settings.ConfigValue;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.ui.settings.model.ConnectionTester;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.net.ssl.SSLException;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings window's Test connection: one request for the provider's list of models, with its key and its extra
 * headers and query parameters, told back as a sentence that tells apart a server that cannot be reached, a key it
 * refuses, a base URL it does not serve, and configured models it does not offer. The key goes only into its header;
 * no message quotes the response body, so a server echoing the key cannot put it on screen.
 *
 * <p>Lists asked for: {@code GET {baseUrl}/models} (OpenAI and compatible servers), {@code GET {baseUrl}/v1/models}
 * with {@code x-api-key} (Anthropic), {@code GET {baseUrl}/v1beta/models} with {@code x-goog-api-key} (Gemini, whose
 * refused key is a 400 naming {@code API_KEY_INVALID}).
 */
final class HttpConnectionTester implements ConnectionTester {
    private static final Logger LOG = LoggerFactory.getLogger(HttpConnectionTester.class);
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String ANTHROPIC_VERSION = AnthropicMessagesWire.VERSION;
    private static final int MAX_LISTED_MISSING = 3;
    /** The most of a models list read: OpenRouter's, the longest, is about 1 MB. */
    private static final long MAX_MODELS_LIST_BYTES = 16L << 20;
    /** The date suffix of a model snapshot: {@code -20250929}, {@code -2024-08-06}. */
    private static final java.util.regex.Pattern SNAPSHOT =
            java.util.regex.Pattern.compile("-(\\d{8}|\\d{4}-\\d{2}-\\d{2})");

    private final HttpClientSource http;
    private final CredentialStore credentials;
    private final Map<String, String> environment;
    private final ObjectMapper mapper = Json.newMapper();

    HttpConnectionTester(OkHttpClient shared, CredentialStore credentials) {
        this(HttpClientSource.of(shared), credentials, Map.of());
    }

    /**
     * @param shared gives the app's client for a URL when a test is made (see {@link AppServices})
     * @param environment where header and query values named by an environment variable are read
     */
    HttpConnectionTester(HttpClientSource shared, CredentialStore credentials, Map<String, String> environment) {
        this.http =
                url -> shared.clientFor(url).newBuilder().callTimeout(TIMEOUT).build();
        this.credentials = credentials;
        this.environment = Map.copyOf(environment);
    }

    @Override
    public Result test(Target target) {
        ProviderApi kind = ProviderApi.fromValue(target.api());
        if (kind == ProviderApi.SIMULATOR) {
            return new Result(true, "The built-in simulator runs inside Rebound; there is nothing to connect to.");
        }
        if (kind == null) {
            return new Result(false, "Choose the provider's API first.");
        }
        HttpUrl base =
                target.baseUrl() == null ? null : HttpUrl.parse(target.baseUrl().strip());
        if (base == null) {
            return new Result(
                    false, "'" + target.baseUrl() + "' is not an http(s) URL; type one like " + example(kind) + ".");
        }
        String key = target.typedKey();
        String keyNote = "with the key you typed";
        if (key == null) {
            List<Credential> saved = credentials.forProvider(target.provider());
            key = saved.isEmpty() ? null : saved.getFirst().secret().reveal();
            keyNote = saved.isEmpty()
                    ? "without a key (none is saved for " + target.provider() + ")"
                    : "with the key '" + saved.getFirst().label() + "'";
        }
        if (key != null && !ConfigValue.headerSafe(key)) {
            return new Result(
                    false,
                    "The key " + keyNote.replaceFirst("^with ", "") + " holds a character that cannot go in an HTTP "
                            + "header (a line break or a non-ASCII character, often left by copying it). Enter it "
                            + "again.");
        }
        RequestExtras extras;
        try {
            extras = RequestExtras.of(
                    new ProviderConfig(
                            target.provider(),
                            kind,
                            target.baseUrl(),
                            List.of(),
                            target.headers(),
                            target.query(),
                            true),
                    environment,
                    key);
        } catch (RequestExtras.Unresolved e) {
            return new Result(false, e.getMessage() + ".");
        }
        HttpUrl url = extras.apply(modelsUrl(base, kind));
        Request.Builder request = new Request.Builder().url(url).get();
        if (key != null) {
            switch (kind) {
                case ANTHROPIC_MESSAGES ->
                    request.header("x-api-key", key).header("anthropic-version", ANTHROPIC_VERSION);
                case GOOGLE_GEMINI -> request.header("x-goog-api-key", key);
                default -> request.header("Authorization", "Bearer " + key);
            }
        } else if (kind == ProviderApi.ANTHROPIC_MESSAGES) {
            request.header("anthropic-version", ANTHROPIC_VERSION);
        }
        extras.applyAfterKey(request);
        String host = url.host();
        Request built = request.build();
        try (Response response = http.clientFor(built.url()).newCall(built).execute()) {
            if (response.isSuccessful() && openRouterRefusesKey(url, built)) {
                return new Result(false, host + " refused the request " + keyNote + " (HTTP 401). Check the key.");
            }
            return outcome(response, url, kind, keyNote, target.models());
        } catch (UnknownHostException e) {
            return new Result(false, "Could not find the host " + host + ". Check the base URL and your network.");
        } catch (ConnectException e) {
            return new Result(
                    false,
                    "Could not connect to " + host + ":" + url.port()
                            + " (nothing answered there). Check the base URL, and that the server is running.");
        } catch (InterruptedIOException e) {
            return new Result(false, "No answer from " + host + " within " + TIMEOUT.toSeconds() + " s.");
        } catch (SSLException e) {
            return new Result(false, "The secure connection to " + host + " failed (" + e.getMessage() + ").");
        } catch (IOException e) {
            LOG.info(
                    "Test connection to {} failed", url.newBuilder().query(null).build(), e);
            return new Result(
                    false,
                    "The connection to " + host + " failed (" + e.getClass().getSimpleName()
                            + "); see the log for details.");
        }
    }

    private static String example(ProviderApi kind) {
        return switch (kind) {
            case ANTHROPIC_MESSAGES -> "https://api.anthropic.com";
            case GOOGLE_GEMINI -> "https://generativelanguage.googleapis.com";
            default -> "https://api.openai.com/v1";
        };
    }

    /**
     * The models list under a base URL: {@code {base}/models}; Anthropic's and Gemini's base URLs are hosts, so their
     * version segment ({@code v1}, {@code v1beta}) is added unless the URL already has one. Every model is asked for
     * in one page.
     */
    private static HttpUrl modelsUrl(HttpUrl base, ProviderApi kind) {
        HttpUrl.Builder url = base.newBuilder();
        List<String> segments = base.pathSegments();
        if (!segments.isEmpty() && segments.getLast().isEmpty()) {
            url.removePathSegment(segments.size() - 1);
        }
        boolean versioned = segments.stream().anyMatch(s -> s.matches("v\\d+(alpha|beta)?\\d*"));
        switch (kind) {
            case ANTHROPIC_MESSAGES -> {
                if (!versioned) {
                    url.addPathSegment("v1");
                }
                url.addPathSegment("models").addQueryParameter("limit", "1000");
            }
            case GOOGLE_GEMINI -> {
                if (!versioned) {
                    url.addPathSegment("v1beta");
                }
                url.addPathSegment("models").addQueryParameter("pageSize", "1000");
            }
            default -> url.addPathSegment("models");
        }
        return url.build();
    }

    private Result outcome(Response response, HttpUrl url, ProviderApi kind, String keyNote, List<String> configured)
            throws IOException {
        int code = response.code();
        String host = url.host();
        if (code == 401 || code == 403 || (kind == ProviderApi.GOOGLE_GEMINI && code == 400 && refusedKey(response))) {
            return new Result(false, host + " refused the request " + keyNote + " (HTTP " + code + "). Check the key.");
        }
        if (code == 404 && url.encodedPath().contains("/deployments/")) {
            // An Azure deployment URL: the key was accepted (a refused one is a 401 first) but there is no model list.
            return new Result(
                    true,
                    "Reached " + host + " " + keyNote + "; a deployment URL has no model list, so send a message to "
                            + "check the deployment itself.");
        }
        if (code == 404) {
            return new Result(
                    false,
                    "Reached " + host + ", but " + url.encodedPath() + " does not exist there "
                            + "(HTTP 404). Check the base URL; " + baseUrlAdvice(kind));
        }
        if (!response.isSuccessful()) {
            return new Result(false, host + " answered HTTP " + code + " " + keyNote + ".");
        }
        Set<String> offered = offeredModels(response);
        if (offered == null) {
            return new Result(true, "Connected to " + host + " " + keyNote + ".");
        }
        List<String> missing = new ArrayList<>();
        for (String model : configured) {
            if (offered.stream().noneMatch(id -> sameModel(model, id))) {
                missing.add(model);
            }
        }
        String offers = "; it offers " + offered.size() + (offered.size() == 1 ? " model" : " models");
        if (!missing.isEmpty()) {
            List<String> named = missing.subList(0, Math.min(MAX_LISTED_MISSING, missing.size()));
            return new Result(
                    false,
                    "Connected to " + host + " " + keyNote + offers + ", but not "
                            + String.join(", ", named)
                            + (missing.size() > named.size() ? " and " + (missing.size() - named.size()) + " more" : "")
                            + ". Check the model ids.");
        }
        return new Result(true, "Connected to " + host + " " + keyNote + offers + ".");
    }

    /**
     * Whether a configured model id names a listed one: the same id; Gemini's {@code models/} prefix; Ollama's
     * implicit {@code :latest} tag; or an alias of a dated snapshot ({@code claude-sonnet-4-5} for
     * {@code claude-sonnet-4-5-20250929}, {@code gpt-4o} for {@code gpt-4o-2024-08-06}), as providers list only the
     * snapshots but accept the alias.
     */
    static boolean sameModel(String configured, String listed) {
        if (listed.equals(configured) || listed.equals("models/" + configured)) {
            return true;
        }
        if (listed.equals(configured + ":latest")) {
            return true;
        }
        // Anthropic's aliases: claude-3-7-sonnet-latest and claude-sonnet-4-0 name claude-3-7-sonnet-20250219 and
        // claude-sonnet-4-20250514.
        String alias = configured.replaceFirst("-(latest|0)$", "");
        return listed.startsWith(alias + "-")
                && SNAPSHOT.matcher(listed.substring(alias.length())).matches();
    }

    private static String baseUrlAdvice(ProviderApi kind) {
        return switch (kind) {
            case ANTHROPIC_MESSAGES -> "Anthropic's is https://api.anthropic.com.";
            case GOOGLE_GEMINI -> "Gemini's is https://generativelanguage.googleapis.com.";
            default -> "OpenAI-compatible servers usually end in /v1.";
        };
    }

    /** Whether a Gemini 400 is its refused key ({@code API_KEY_INVALID}); the body is read, never shown. */
    private static boolean refusedKey(Response response) {
        try {
            String body = response.peekBody(64 * 1024).string();
            return body.contains("API_KEY_INVALID")
                    || body.toLowerCase(Locale.ROOT).contains("api key not valid");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * OpenRouter lists its models to anyone: its {@code GET {base}/key} says whether the key is good. A 401 or 403
     * there is a refused key; any other answer leaves the verdict to the models list.
     */
    private boolean openRouterRefusesKey(HttpUrl modelsUrl, Request models) {
        if (!modelsUrl.host().endsWith("openrouter.ai")) {
            return false;
        }
        HttpUrl keyUrl = modelsUrl
                .newBuilder()
                .query(null)
                .removePathSegment(modelsUrl.pathSize() - 1)
                .addPathSegment("key")
                .build();
        try (Response response = http.clientFor(keyUrl)
                .newCall(models.newBuilder().url(keyUrl).build())
                .execute()) {
            return response.code() == 401 || response.code() == 403;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The model ids a models list names ({@code data[].id}, Gemini's {@code models[].name}), or null when the body is
     * not such a list.
     */
    private Set<String> offeredModels(Response response) {
        try {
            JsonNode body = mapper.readTree(ResponseBodies.readAtMost(response.body(), MAX_MODELS_LIST_BYTES));
            if (body == null) {
                return null;
            }
            Set<String> ids = new TreeSet<>();
            JsonNode data = body.get("data");
            if (data != null && data.isArray()) {
                data.forEach(m -> ids.add(m.path("id").asText("")));
                return ids;
            }
            JsonNode models = body.get("models");
            if (models != null && models.isArray()) {
                models.forEach(m -> ids.add(
                        m.has("name")
                                ? m.path("name").asText("")
                                : m.path("model").asText("")));
                return ids;
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
