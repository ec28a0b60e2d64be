package dev.rebound.ui.settings.model;

import dev.rebound.settings.ConfigValue;
import java.util.List;
import java.util.Map;

/**
 * Checks that a provider answers with a key: the settings window's "Test connection". Implemented outside the UI,
 * which never talks to providers itself. Blocking; the window calls it off the FX thread.
 */
@FunctionalInterface
public interface ConnectionTester {

    /**
     * Tries the provider once.
     *
     * @param provider the provider's key, whose saved credentials are used when {@code typedKey} is null
     * @param api the provider's {@code api} value ({@code openai-completions}...)
     * @param baseUrl the provider's base URL as typed
     * @param typedKey a key typed in the window and not saved yet, or null
     * @return what happened, for a person to read; never contains a key
     */
    default Result test(String provider, String api, String baseUrl, String typedKey) {
        return test(new Target(provider, api, baseUrl, typedKey, List.of(), Map.of(), Map.of()));
    }

    /**
     * Tries the provider once, as it is typed.
     *
     * @return what happened, for a person to read; never contains a key or a secret header
     */
    Result test(Target target);

    /**
     * A provider as typed in the window.
     *
     * @param provider the provider's key, whose saved credentials are used when {@code typedKey} is null
     * @param api the provider's {@code api} value ({@code openai-completions}...)
     * @param baseUrl the provider's base URL as typed
     * @param typedKey a key typed in the window and not saved yet, or null
     * @param models the model ids configured for it: the test says which of them the server does not offer
     * @param headers its extra headers
     * @param query its extra query parameters
     */
    record Target(
            String provider,
            String api,
            String baseUrl,
            String typedKey,
            List<String> models,
            Map<String, ConfigValue> headers,
            Map<String, ConfigValue> query) {
        public Target {
            models = List.copyOf(models);
            headers = Map.copyOf(headers);
            query = Map.copyOf(query);
        }
    }

    /**
     * The outcome of a test.
     *
     * @param ok whether the provider answered as expected
     * @param message what happened, for a person to read
     */
    record Result(boolean ok, String message) {}
}
