package dev.rebound.retry;

import java.util.List;
import java.util.Optional;

/**
 * Recognises the permanent failures of model servers — Ollama, llama.cpp, LM Studio, vLLM and their kin — that no
 * retry fixes: not enough memory to load the model, a runner process or engine that died (it dies again on the same
 * request, or stays dead until the server is restarted), a model file that is missing, damaged or of an unsupported
 * architecture. They arrive as 500s (or inside a stream), which would otherwise
 * be retried ten times. Terminal, with advice. A server that is only busy or still loading ("Loading model", "server
 * busy", "maximum pending requests exceeded") is not matched: that stays transient.
 */
final class LocalModelRules {
    private static final List<NamedPattern> PATTERNS = List.of(
            NamedPattern.of(
                    "model-memory",
                    "requires? more (?:system |gpu |v)?(?:memory|ram)|(?:not enough|insufficient) (?:system |gpu |"
                            + "video |v)?(?:memory|ram)\\b|\\bout of (?:device |gpu |video )?memory"
                            + "|(?:failed|unable) to allocate|cudaMalloc failed|model (?:is )?too (?:big|large) "
                            + "(?:for|to fit)|insufficient system resources|larger than the available (?:system |gpu |v)?"
                            + "memory"),
            NamedPattern.of(
                    "model-runner-died",
                    "runner process (?:has )?(?:terminated|exited|died|crashed|no longer running)|model runner has "
                            + "unexpectedly stopped|llama runner (?:has )?(?:terminated|exited|died|crashed)"
                            + "|(?:llama-server|server) process has terminated|model has crashed"
                            + "|EngineDeadError|EngineCore encountered an issue|engine (?:loop )?(?:is )?(?:dead|not "
                            + "running)|^exit status \\d+$|: exit status \\d+$"),
            NamedPattern.of(
                    "model-load-failed",
                    "(?:failed|unable|could not|couldn't|error) (?:to )?load(?:ing)? (?:the )?model|model failed to "
                            + "load|model[ _]load[ _]failed|failed to (?:create|initiali[sz]e) (?:the )?(?:llama[_ ])?(?:context|model)"
                            + "|no models? (?:are |is )?(?:currently )?loaded"),
            NamedPattern.of(
                    "model-architecture",
                    "unknown (?:model )?architecture|unsupported (?:model )?architecture|architecture \\S+ (?:is )?not "
                            + "supported|model architecture \\S+ (?:is )?not supported|unknown (?:pre-tokenizer|tokenizer"
                            + "|model) type|(?:tensor|weight)\\b[^.]{0,60}?\\bhas an unsupported type|does not recognize "
                            + "this architecture|model type `?[\\w.-]+`? but \\w+ does not recognize"),
            NamedPattern.of(
                    "model-file",
                    "model file (?:not found|missing|does not exist)|(?:invalid|corrupt(?:ed)?|bad) (?:model|gguf|ggml)"
                            + " file|not a valid gguf|invalid gguf|failed to read (?:magic|tensor|the model)"
                            + "|(?:missing|unknown) tensor|tensor '?[\\w.]+'? (?:not found|has wrong shape)"
                            + "|invalid magic|gguf_init_from_file"));
    /** A failure the server itself calls passing ("try again shortly", "retrying", "temporarily"): transient. */
    private static final NamedPattern PASSING =
            NamedPattern.of("passing", "\\bretry|\\bretrying\\b|try again|temporar|shortly|rescheduled|later\\b");

    private LocalModelRules() {}

    /** The verdict when the text says the server cannot load the model. */
    static Optional<Classification> match(String text) {
        if (PASSING.foundIn(text)) {
            return Optional.empty();
        }
        return NamedPattern.firstIn(PATTERNS, text)
                .map(name -> Classification.terminal("text:" + name, Advice.MODEL_CANNOT_LOAD));
    }
}
