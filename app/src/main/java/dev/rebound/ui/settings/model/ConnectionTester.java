package dev.rebound.ui.settings.model;

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
    Result test(String provider, String api, String baseUrl, String typedKey);

    /**
     * The outcome of a test.
     *
     * @param ok whether the provider answered as expected
     * @param message what happened, for a person to read
     */
    record Result(boolean ok, String message) {}
}
