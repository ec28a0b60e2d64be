package dev.rebound.settings;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.files.FileProblem;
import dev.rebound.files.KeyPath;
import dev.rebound.transcript.ModelRef;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns a settings document into typed {@link Settings} and the problems found on the way: wrong types, out-of-range
 * numbers, unknown enum values and malformed selectors are errors, and the value concerned takes its default (a
 * provider or model entry that is wrong is left out); references to models that are not configured are warnings.
 * Unknown keys are ignored. A pure function: the document is not modified.
 */
public final class SettingsValidator {
    /** Name of the member that would hold an API key; it never belongs in settings.json. */
    static final String API_KEY = "apiKey";

    private static final String API_VALUES =
            Arrays.stream(ProviderApi.values()).map(ProviderApi::toString).collect(Collectors.joining(", "));
    private static final String POLICY_VALUES = Arrays.stream(RetrySettings.RevertPolicy.values())
            .map(RetrySettings.RevertPolicy::toString)
            .collect(Collectors.joining(", "));

    private final List<FileProblem> problems = new ArrayList<>();
    private Map<String, ProviderConfig> providers = Map.of();

    private SettingsValidator() {}

    /**
     * The settings a document describes and what is wrong with it.
     *
     * @param settings the typed settings; every invalid value replaced by its default
     * @param problems errors and warnings, with key paths
     */
    public record Result(Settings settings, List<FileProblem> problems) {
        public Result {
            problems = List.copyOf(problems);
        }

        /** Whether any problem is an error (an edit with errors is refused). */
        public boolean hasErrors() {
            return problems.stream().anyMatch(FileProblem::isError);
        }

        /** The errors only. */
        public List<FileProblem> errors() {
            return problems.stream().filter(FileProblem::isError).toList();
        }
    }

    /** Validates a settings document (the parsed content of settings.json); null counts as an empty document. */
    public static Result validate(JsonNode document) {
        return new SettingsValidator().run(document);
    }

    /** The key paths of every {@code apiKey} member with a value, anywhere in a document. */
    static List<String> apiKeyPaths(JsonNode node) {
        List<String> paths = new ArrayList<>();
        collectApiKeyPaths(node, "", paths);
        return paths;
    }

    private static void collectApiKeyPaths(JsonNode node, String path, List<String> paths) {
        if (node == null) {
            return;
        }
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> member : node.properties()) {
                String childPath = KeyPath.child(path, member.getKey());
                if (member.getKey().equals(API_KEY) && present(member.getValue())) {
                    paths.add(childPath);
                } else {
                    collectApiKeyPaths(member.getValue(), childPath, paths);
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectApiKeyPaths(node.get(i), KeyPath.index(path, i), paths);
            }
        }
    }

    /** The longest default system prompt accepted (about 25,000 tokens). */
    public static final int MAX_SYSTEM_PROMPT = 100_000;

    private Result run(JsonNode document) {
        if (!present(document)) {
            return new Result(Settings.DEFAULTS, List.of());
        }
        if (!document.isObject()) {
            problems.add(FileProblem.error("", "settings must be a JSON object"));
            return new Result(Settings.DEFAULTS, problems);
        }
        for (String path : apiKeyPaths(document)) {
            problems.add(FileProblem.warning(
                    path,
                    "API keys do not belong in settings.json, which is not kept "
                            + "secret; move the key to credentials.json. It is ignored here."));
        }
        providers = providers(document.get("providers"));
        ModelRef model = present(document.get("model")) ? selector(document.get("model"), "model") : null;
        Map<String, ModelRef> roles = modelRoles(document.get("modelRoles"));
        RetrySettings retry = retry(document.get("retry"));
        TimeoutSettings timeouts = timeouts(document.get("timeouts"));
        LimitSettings limits = limits(document.get("limits"));
        String systemPrompt = systemPrompt(document.get("systemPrompt"));
        plugins(document.get("plugins"));
        return new Result(new Settings(model, roles, providers, retry, timeouts, limits, systemPrompt), problems);
    }

    /** The default system prompt: a string of at most {@value #MAX_SYSTEM_PROMPT} characters, or empty. */
    private String systemPrompt(JsonNode node) {
        if (!present(node)) {
            return "";
        }
        if (!node.isTextual()) {
            problems.add(FileProblem.error("systemPrompt", "must be a string (the instructions sent with every chat)"));
            return "";
        }
        if (node.textValue().length() > MAX_SYSTEM_PROMPT) {
            problems.add(
                    FileProblem.error("systemPrompt", "must be at most %,d characters".formatted(MAX_SYSTEM_PROMPT)));
            return "";
        }
        return node.textValue();
    }

    private Map<String, ProviderConfig> providers(JsonNode node) {
        Map<String, ProviderConfig> result = new LinkedHashMap<>();
        if (!isObject(node, "providers")) {
            return result;
        }
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String key = entry.getKey();
            String path = KeyPath.child("providers", key);
            if (!present(entry.getValue())) {
                continue;
            }
            if (key.isEmpty() || key.contains("/") || !key.strip().equals(key)) {
                problems.add(FileProblem.error(
                        path, "a provider key must be non-empty, without '/' and without surrounding spaces"));
                continue;
            }
            ProviderConfig provider = provider(key, entry.getValue(), path);
            if (provider != null) {
                result.put(key, provider);
            }
        }
        return result;
    }

    private ProviderConfig provider(String key, JsonNode node, String path) {
        if (!node.isObject()) {
            problems.add(FileProblem.error(path, "must be an object with api, baseUrl and models"));
            return null;
        }
        ProviderApi api = api(node.get("api"), KeyPath.child(path, "api"));
        int errorsBefore = errorCount();
        String baseUrl = baseUrl(node.get("baseUrl"), KeyPath.child(path, "baseUrl"), api);
        boolean baseUrlValid = errorCount() == errorsBefore;
        List<ModelConfig> models = models(node.get("models"), KeyPath.child(path, "models"));
        ProviderExtrasReader extras = new ProviderExtrasReader(problems);
        Map<String, ConfigValue> headers = extras.headers(node.get("headers"), KeyPath.child(path, "headers"));
        Map<String, ConfigValue> query = extras.query(node.get("query"), KeyPath.child(path, "query"));
        ProviderApi format = extras.format(node.get("format"), KeyPath.child(path, "format"), api);
        boolean store = extras.store(node.get("store"), KeyPath.child(path, "store"), api, format);
        return api != null && baseUrlValid
                ? new ProviderConfig(key, api, baseUrl, models, headers, query, store, format)
                : null;
    }

    private ProviderApi api(JsonNode node, String path) {
        if (!present(node)) {
            problems.add(FileProblem.error(path, "is required; must be one of " + API_VALUES));
            return null;
        }
        ProviderApi api = node.isTextual() ? ProviderApi.fromValue(node.textValue()) : null;
        if (api == null) {
            problems.add(FileProblem.error(path, "must be one of " + API_VALUES));
        }
        return api;
    }

    private String baseUrl(JsonNode node, String path, ProviderApi api) {
        if (!present(node)) {
            if (api != ProviderApi.SIMULATOR) {
                problems.add(FileProblem.error(
                        path, "is required (the base URL of the provider's API, like " + "https://api.openai.com/v1)"));
            }
            return null;
        }
        if (!node.isTextual()) {
            problems.add(FileProblem.error(path, "must be a URL string"));
            return null;
        }
        String url = node.textValue();
        if (api != ProviderApi.SIMULATOR && !isHttpUrl(url)) {
            problems.add(FileProblem.error(
                    path, "'" + url + "' must be an absolute http(s) URL, like https://api.openai.com/v1"));
            return null;
        }
        return url;
    }

    private static boolean isHttpUrl(String text) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https"))
                    && uri.getRawAuthority() != null
                    && !uri.getRawAuthority().isBlank();
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private List<ModelConfig> models(JsonNode node, String path) {
        List<ModelConfig> result = new ArrayList<>();
        if (!present(node)) {
            return result;
        }
        if (!node.isArray()) {
            problems.add(FileProblem.error(path, "must be an array of models ({\"id\": ...})"));
            return result;
        }
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < node.size(); i++) {
            String entryPath = KeyPath.index(path, i);
            JsonNode entry = node.get(i);
            if (!entry.isObject()) {
                problems.add(FileProblem.error(entryPath, "must be an object with an id"));
                continue;
            }
            String idPath = KeyPath.child(entryPath, "id");
            JsonNode idNode = entry.get("id");
            Long contextWindow = wholeNumber(
                    entry.get("contextWindow"), KeyPath.child(entryPath, "contextWindow"), 1, Integer.MAX_VALUE);
            if (!present(idNode)
                    || !idNode.isTextual()
                    || idNode.textValue().isBlank()
                    || !idNode.textValue().strip().equals(idNode.textValue())) {
                problems.add(FileProblem.error(idPath, "must be a non-empty string without surrounding spaces"));
                continue;
            }
            String id = idNode.textValue();
            if (!ids.add(id)) {
                problems.add(FileProblem.error(idPath, "duplicate model id '" + id + "'"));
                continue;
            }
            JsonNode nameNode = entry.get("name");
            String name = null;
            if (present(nameNode)) {
                if (nameNode.isTextual() && !nameNode.textValue().isBlank()) {
                    name = nameNode.textValue().strip();
                } else {
                    problems.add(FileProblem.error(KeyPath.child(entryPath, "name"), "must be a non-empty string"));
                }
            }
            result.add(new ModelConfig(id, contextWindow == null ? null : contextWindow.intValue(), name));
        }
        return result;
    }

    private Map<String, ModelRef> modelRoles(JsonNode node) {
        Map<String, ModelRef> result = new LinkedHashMap<>();
        if (!isObject(node, "modelRoles")) {
            return result;
        }
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String path = KeyPath.child("modelRoles", entry.getKey());
            if (entry.getKey().isBlank() || entry.getKey().contains("/")) {
                problems.add(FileProblem.error(path, "a role name must be non-empty and without '/'"));
                continue;
            }
            if (present(entry.getValue())) {
                ModelRef ref = selector(entry.getValue(), path);
                if (ref != null) {
                    result.put(entry.getKey(), ref);
                }
            }
        }
        return result;
    }

    private RetrySettings retry(JsonNode node) {
        RetrySettings d = RetrySettings.DEFAULTS;
        if (!isObject(node, "retry")) {
            return d;
        }
        return new RetrySettings(
                bool(node, "retry", "enabled", d.enabled()),
                (int) whole(node, "retry", "maxRetries", 0, 1000, d.maxRetries()),
                whole(node, "retry", "baseDelayMs", 0, 3_600_000, d.baseDelayMs()),
                whole(node, "retry", "maxDelayMs", Long.MIN_VALUE, Long.MAX_VALUE, d.maxDelayMs()),
                whole(node, "retry", "maxElapsedMs", Long.MIN_VALUE, Long.MAX_VALUE, d.maxElapsedMs()),
                bool(node, "retry", "modelFallback", d.modelFallback()),
                fallbackChains(node.get("fallbackChains")),
                revertPolicy(node.get("fallbackRevertPolicy"), d.fallbackRevertPolicy()),
                whole(node, "retry", "refusalPinMs", 0, Long.MAX_VALUE, d.refusalPinMs()));
    }

    private RetrySettings.RevertPolicy revertPolicy(JsonNode node, RetrySettings.RevertPolicy fallback) {
        if (!present(node)) {
            return fallback;
        }
        RetrySettings.RevertPolicy policy =
                node.isTextual() ? RetrySettings.RevertPolicy.fromValue(node.textValue()) : null;
        if (policy == null) {
            problems.add(FileProblem.error("retry.fallbackRevertPolicy", "must be one of " + POLICY_VALUES));
            return fallback;
        }
        return policy;
    }

    /**
     * Fallback chains. Their problems are warnings, never errors (§6 of the retry policy): a malformed selector or an
     * unknown model is reported with its key path and skipped, so a bad chain entry never refuses a whole edit.
     */
    private Map<String, List<String>> fallbackChains(JsonNode node) {
        int before = problems.size();
        Map<String, List<String>> result = chainsOf(node);
        for (int i = before; i < problems.size(); i++) {
            FileProblem p = problems.get(i);
            boolean entry = p.keyPath().matches(".*\\[\\d+]");
            if (p.isError() || entry) {
                problems.set(i, FileProblem.warning(p.keyPath(), p.message() + "; this entry is skipped"));
            }
        }
        return result;
    }

    private Map<String, List<String>> chainsOf(JsonNode node) {
        Map<String, List<String>> result = new LinkedHashMap<>();
        String chainsPath = "retry.fallbackChains";
        if (!isObject(node, chainsPath)) {
            return result;
        }
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String path = KeyPath.child(chainsPath, entry.getKey());
            if (!chainKey(entry.getKey(), path)) {
                continue;
            }
            JsonNode chain = entry.getValue();
            if (!present(chain)) {
                continue;
            }
            if (!chain.isArray()) {
                problems.add(FileProblem.error(path, "must be an array of model selectors (provider/modelId)"));
                continue;
            }
            List<String> selectors = new ArrayList<>();
            for (int i = 0; i < chain.size(); i++) {
                ModelRef ref = selector(chain.get(i), KeyPath.index(path, i));
                if (ref != null) {
                    selectors.add(ref.selector());
                }
            }
            result.put(entry.getKey(), selectors);
        }
        return result;
    }

    /** A chain key is a role name ({@code default}, {@code title}), a {@code provider/*} wildcard or a selector. */
    private boolean chainKey(String key, String path) {
        if (key.isBlank()) {
            problems.add(FileProblem.error(path, "a chain key must be a role name, provider/* or provider/modelId"));
            return false;
        }
        int slash = key.indexOf('/');
        if (slash < 0) {
            return true;
        }
        if (slash == key.length() - 2 && key.endsWith("*")) {
            String provider = key.substring(0, slash);
            if (provider.isEmpty() || !provider.strip().equals(provider)) {
                problems.add(FileProblem.error(path, "'" + key + "' is not of the form provider/*"));
                return false;
            }
            if (!providers.containsKey(provider)) {
                problems.add(FileProblem.warning(path, "provider '" + provider + "' is not configured in providers"));
            }
            return true;
        }
        return parseSelector(key, path) != null;
    }

    /** One day: longer timeouts are surely typos, and the HTTP client cannot take more than ~24 days anyway. */
    static final long MAX_TIMEOUT_MS = 86_400_000;

    private TimeoutSettings timeouts(JsonNode node) {
        TimeoutSettings d = TimeoutSettings.DEFAULTS;
        if (!isObject(node, "timeouts")) {
            return d;
        }
        return new TimeoutSettings(
                whole(node, "timeouts", "connectMs", 1, MAX_TIMEOUT_MS, d.connectMs()),
                whole(node, "timeouts", "firstByteMs", 1, MAX_TIMEOUT_MS, d.firstByteMs()),
                whole(node, "timeouts", "idleMs", 1, MAX_TIMEOUT_MS, d.idleMs()));
    }

    private LimitSettings limits(JsonNode node) {
        LimitSettings d = LimitSettings.DEFAULTS;
        if (!isObject(node, "limits")) {
            return d;
        }
        return new LimitSettings(
                whole(node, "limits", "maxReplyChars", 1_000, Long.MAX_VALUE / 4, d.maxReplyChars()),
                whole(node, "limits", "maxEventBytes", 64 * 1024, Integer.MAX_VALUE, d.maxEventBytes()),
                whole(node, "limits", "maxResponseBytes", 1024 * 1024, Long.MAX_VALUE / 4, d.maxResponseBytes()));
    }

    /**
     * {@code plugins}: one object per plugin id, read by the plugin host when it starts (its {@code enabled} switch)
     * and by the plugin itself (everything else, unchecked here).
     */
    private void plugins(JsonNode node) {
        if (!isObject(node, "plugins")) {
            return;
        }
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String path = KeyPath.child("plugins", entry.getKey());
            if (!present(entry.getValue())) {
                continue;
            }
            if (!entry.getValue().isObject()) {
                problems.add(FileProblem.error(
                        path, "must be an object with the plugin's settings, e.g. " + "{\"enabled\": false}"));
                continue;
            }
            bool(entry.getValue(), path, "enabled", true);
        }
    }

    /** A model selector value; a malformed one is an error, one naming an unconfigured model a warning. */
    private ModelRef selector(JsonNode node, String path) {
        if (node == null || !node.isTextual()) {
            problems.add(FileProblem.error(path, "must be a model selector string (provider/modelId)"));
            return null;
        }
        return parseSelector(node.textValue(), path);
    }

    private ModelRef parseSelector(String text, String path) {
        ModelRef ref;
        try {
            ref = ModelRef.parse(text);
        } catch (IllegalArgumentException e) {
            problems.add(FileProblem.error(path, e.getMessage()));
            return null;
        }
        ProviderConfig provider = providers.get(ref.provider());
        if (provider == null) {
            problems.add(FileProblem.warning(
                    path,
                    "'" + text + "' names provider '" + ref.provider() + "', which is not configured in providers"));
        } else if (provider.models().stream().noneMatch(m -> m.id().equals(ref.id()))) {
            problems.add(FileProblem.warning(
                    path, "'" + text + "' is not among the models of provider '" + ref.provider() + "'"));
        }
        return ref;
    }

    private boolean isObject(JsonNode node, String path) {
        if (!present(node)) {
            return false;
        }
        if (!node.isObject()) {
            problems.add(FileProblem.error(path, "must be an object"));
            return false;
        }
        return true;
    }

    private boolean bool(JsonNode group, String groupPath, String key, boolean fallback) {
        JsonNode node = group.get(key);
        if (!present(node)) {
            return fallback;
        }
        if (!node.isBoolean()) {
            problems.add(FileProblem.error(KeyPath.child(groupPath, key), "must be true or false"));
            return fallback;
        }
        return node.booleanValue();
    }

    private long whole(JsonNode group, String groupPath, String key, long min, long max, long fallback) {
        Long value = wholeNumber(group.get(key), KeyPath.child(groupPath, key), min, max);
        return value == null ? fallback : value;
    }

    /** A whole number within [min, max], or null when absent or invalid (then reported). */
    private Long wholeNumber(JsonNode node, String path, long min, long max) {
        if (!present(node)) {
            return null;
        }
        boolean finite = node.isNumber() && !(node.isFloatingPointNumber() && !Double.isFinite(node.doubleValue()));
        BigDecimal value = finite ? node.decimalValue() : null;
        if (value == null || value.stripTrailingZeros().scale() > 0) {
            problems.add(FileProblem.error(path, "must be a whole number"));
            return null;
        }
        if (value.compareTo(BigDecimal.valueOf(min)) < 0) {
            problems.add(FileProblem.error(path, min == 1 ? "must be > 0" : "must be ≥ " + min));
            return null;
        }
        if (value.compareTo(BigDecimal.valueOf(max)) > 0) {
            problems.add(FileProblem.error(path, "must be ≤ " + max));
            return null;
        }
        return value.longValueExact();
    }

    private int errorCount() {
        return (int) problems.stream().filter(FileProblem::isError).count();
    }

    private static boolean present(JsonNode node) {
        return node != null && !node.isNull() && !node.isMissingNode();
    }
}
