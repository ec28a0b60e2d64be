package dev.rebound.settings;

/** The wire protocols a provider may speak ({@code api} in settings). {@link #toString()} gives the settings value. */
public enum ProviderApi {
    OPENAI_COMPLETIONS("openai-completions"),
    OPENAI_RESPONSES("openai-responses"),
    ANTHROPIC_MESSAGES("anthropic-messages"),
    GOOGLE_GEMINI("google-gemini"),
    SIMULATOR("simulator");

    private final String value;

    ProviderApi(String value) {
        this.value = value;
    }

    /** The api of a settings value, or null when there is none of that name. */
    public static ProviderApi fromValue(String value) {
        for (ProviderApi a : values()) {
            if (a.value.equals(value)) {
                return a;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return value;
    }
}
