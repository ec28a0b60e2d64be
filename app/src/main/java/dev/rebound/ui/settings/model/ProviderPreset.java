package dev.rebound.ui.settings.model;

import dev.rebound.settings.ProviderApi;
import java.util.List;

/**
 * A kind of provider the Providers tab can add, filled in as its documentation says: key, api, base URL, a model, and
 * the extra headers and query parameters it needs ({@code ${VARIABLE}} stands for an environment variable,
 * {@code <key>} for the provider's key from credentials.json).
 *
 * @param name what the menu shows
 * @param key the provider key suggested
 * @param api its wire protocol
 * @param baseUrl its base URL ({@code YOUR-…} parts are to be replaced)
 * @param models a model id to start from
 * @param headers extra headers, one {@code Name: value} per line
 * @param query extra query parameters, one {@code name=value} per line
 */
public record ProviderPreset(
        String name, String key, ProviderApi api, String baseUrl, String models, String headers, String query) {

    /** Every preset, in the order the menu shows them. */
    public static final List<ProviderPreset> ALL = List.of(
            new ProviderPreset(
                    "OpenAI", "openai", ProviderApi.OPENAI_RESPONSES, "https://api.openai.com/v1", "gpt-4.1", "", ""),
            new ProviderPreset(
                    "Anthropic",
                    "anthropic",
                    ProviderApi.ANTHROPIC_MESSAGES,
                    "https://api.anthropic.com",
                    "claude-sonnet-4-5",
                    "",
                    ""),
            new ProviderPreset(
                    "Google Gemini",
                    "gemini",
                    ProviderApi.GOOGLE_GEMINI,
                    "https://generativelanguage.googleapis.com",
                    "gemini-2.5-flash",
                    "",
                    ""),
            new ProviderPreset(
                    "Azure OpenAI",
                    "azure",
                    ProviderApi.OPENAI_COMPLETIONS,
                    "https://YOUR-RESOURCE.openai.azure.com/openai/deployments/YOUR-DEPLOYMENT",
                    "YOUR-DEPLOYMENT",
                    "api-key: <key>",
                    "api-version=2024-10-21"),
            new ProviderPreset(
                    "OpenRouter",
                    "openrouter",
                    ProviderApi.OPENAI_COMPLETIONS,
                    "https://openrouter.ai/api/v1",
                    "anthropic/claude-sonnet-4.5",
                    "HTTP-Referer: https://rebound.dev\nX-Title: Rebound",
                    ""),
            new ProviderPreset(
                    "Groq",
                    "groq",
                    ProviderApi.OPENAI_COMPLETIONS,
                    "https://api.groq.com/openai/v1",
                    "llama-3.3-70b-versatile",
                    "",
                    ""),
            new ProviderPreset(
                    "DeepSeek",
                    "deepseek",
                    ProviderApi.OPENAI_COMPLETIONS,
                    "https://api.deepseek.com/v1",
                    "deepseek-chat",
                    "",
                    ""),
            new ProviderPreset(
                    "Mistral",
                    "mistral",
                    ProviderApi.OPENAI_COMPLETIONS,
                    "https://api.mistral.ai/v1",
                    "mistral-large-latest",
                    "",
                    ""),
            new ProviderPreset(
                    "Ollama (local)",
                    "ollama",
                    ProviderApi.OPENAI_COMPLETIONS,
                    "http://127.0.0.1:11434/v1",
                    "llama3.2",
                    "",
                    ""),
            new ProviderPreset(
                    "LM Studio (local)",
                    "lmstudio",
                    ProviderApi.OPENAI_COMPLETIONS,
                    "http://127.0.0.1:1234/v1",
                    "",
                    "",
                    ""),
            new ProviderPreset(
                    "vLLM / llama.cpp server",
                    "local",
                    ProviderApi.OPENAI_COMPLETIONS,
                    "http://127.0.0.1:8000/v1",
                    "",
                    "",
                    ""),
            new ProviderPreset("Other OpenAI-compatible server", "", ProviderApi.OPENAI_COMPLETIONS, "", "", "", ""));

    @Override
    public String toString() {
        return name;
    }
}
