package dev.rebound.simulator;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.json.Json;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads and writes scenarios: {@code {"steps": [...]}} or a bare array of steps, each step an object
 * {@code {"fault": "rate-limit", "retryAfterSeconds": 2, "credential": "sim-key-primary", "times": 3}} or just the
 * fault's name ({@code "overload"}). The format is documented in {@code docs/simulator.md}. A scenario with any problem
 * is refused whole: unknown faults, unknown fields (a misspelt field would silently do nothing), wrong types and values
 * out of range are all reported with their location.
 */
public final class Scenarios {
    /** Most repetitions of one step. */
    static final int MAX_TIMES = 1000;
    /** Longest delay, stall or limit reset a step may ask for, in milliseconds (one hour). */
    static final long MAX_MS = 3_600_000;

    static final int MAX_CHARS = 1_000_000;

    private static final Set<String> COMMON_FIELDS = Set.of("fault", "credential", "times");
    private static final Map<String, List<String>> FAULT_FIELDS = Map.ofEntries(
            Map.entry("ok", List.of()),
            Map.entry("overload", List.of("inStream")),
            Map.entry("server-error", List.of("status")),
            Map.entry("rate-limit", List.of("retryAfterSeconds", "retryAfterMs")),
            Map.entry("usage-limit", List.of("resetsInSeconds")),
            Map.entry("insufficient-quota", List.of()),
            Map.entry("reset-before-headers", List.of()),
            Map.entry("cut-after", List.of("chars")),
            Map.entry("stall", List.of("afterChars")),
            Map.entry("refusal", List.of()),
            Map.entry("context-overflow", List.of()),
            Map.entry("unauthorized", List.of()),
            Map.entry("delay", List.of("ms")));
    /** Every fault name, in the order the documentation lists them (a "Simulate failures" menu can list these). */
    public static final List<String> FAULT_NAMES = List.of(
            "ok",
            "overload",
            "server-error",
            "rate-limit",
            "usage-limit",
            "insufficient-quota",
            "reset-before-headers",
            "cut-after",
            "stall",
            "refusal",
            "context-overflow",
            "unauthorized",
            "delay");

    /** Defaults of the optional fields. */
    static final long DEFAULT_RETRY_AFTER_SECONDS = 1;

    static final long DEFAULT_SERVER_ERROR_STATUS = 503;
    static final long DEFAULT_RESETS_IN_SECONDS = 300;
    static final int DEFAULT_CUT_AFTER_CHARS = 40;
    static final int DEFAULT_STALL_AFTER_CHARS = 40;
    static final long DEFAULT_DELAY_MS = 2000;

    private static final ObjectMapper MAPPER = Json.newMapper();

    private Scenarios() {}

    /**
     * Reads a scenario file.
     *
     * @throws ScenarioException when it is missing, unreadable or not JSON (a one-line message without the path,
     *     which the caller names once), or is not a valid scenario (every problem, with where it is)
     */
    public static List<FaultStep> read(Path file) throws ScenarioException {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw ScenarioException.ofFile("no such file");
        } catch (AccessDeniedException e) {
            throw ScenarioException.ofFile("permission denied");
        } catch (IOException e) {
            throw ScenarioException.ofFile("cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JacksonException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw ScenarioException.ofFile("not valid JSON" + where + ": " + parserReason(e));
        }
        return parse(root);
    }

    /** Jackson's reason on one line, without its excerpt of the source. */
    private static String parserReason(JacksonException e) {
        String reason = e.getOriginalMessage().lines().findFirst().orElse("").strip();
        int excerpt = reason.indexOf(" (start marker at [Source");
        return excerpt < 0 ? reason : reason.substring(0, excerpt);
    }

    /**
     * The fault of that name with its optional fields at their defaults ({@code rate-limit}: {@code retry-after: 1}).
     *
     * @throws IllegalArgumentException for a name not in {@link #FAULT_NAMES}
     */
    public static Fault withDefaults(String name) {
        if (!FAULT_FIELDS.containsKey(name)) {
            throw new IllegalArgumentException("unknown fault '" + name + "'; one of " + FAULT_NAMES);
        }
        return new StepReader(name, new ArrayList<>()).fault(name, MAPPER.createObjectNode());
    }

    /** The steps of a scenario document: an object with {@code steps}, or an array of steps. */
    public static List<FaultStep> parse(JsonNode root) throws ScenarioException {
        JsonNode steps = root;
        if (root != null && root.isObject()) {
            Set<String> unknown = unknownFields(root, Set.of("steps"));
            if (!unknown.isEmpty()) {
                throw new ScenarioException(List.of("unknown field(s) " + unknown + "; a scenario has \"steps\""));
            }
            steps = root.get("steps");
        }
        if (steps == null || !steps.isArray()) {
            throw new ScenarioException(List.of("steps: must be an array of steps, e.g. "
                    + "{\"steps\": [{\"fault\": \"overload\", \"times\": 3}]}"));
        }
        List<FaultStep> result = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            new StepReader("steps[" + i + "]", problems).read(steps.get(i), result);
        }
        if (!problems.isEmpty()) {
            throw new ScenarioException(problems);
        }
        return List.copyOf(result);
    }

    /** The JSON form of steps, as {@link #parse} reads them (one object per step, no {@code times}). */
    public static ArrayNode toJson(List<FaultStep> steps) {
        ArrayNode array = MAPPER.createArrayNode();
        for (FaultStep step : steps) {
            ObjectNode node = array.addObject().put("fault", step.fault().name());
            switch (step.fault()) {
                case Fault.RateLimit r
                when r.retryAfterSeconds() != null -> node.put("retryAfterSeconds", r.retryAfterSeconds());
                case Fault.RateLimit r -> node.put("retryAfterMs", r.retryAfterMs());
                case Fault.UsageLimit u -> node.put("resetsInSeconds", u.resetsInSeconds());
                case Fault.CutAfter c -> node.put("chars", c.chars());
                case Fault.ServerError e -> node.put("status", e.status());
                case Fault.Stall s -> node.put("afterChars", s.afterChars());
                case Fault.Delay d -> node.put("ms", d.ms());
                case Fault.Overload o when o.inStream() -> node.put("inStream", true);
                default -> {}
            }
            if (step.credential() != null) {
                node.put("credential", step.credential());
            }
        }
        return array;
    }

    private static Set<String> unknownFields(JsonNode node, Set<String> known) {
        Set<String> unknown = new LinkedHashSet<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!known.contains(name)) {
                unknown.add(name);
            }
        }
        return unknown;
    }

    /** Reads one step, adding it (repeated) to the result or its problems to the list. */
    private record StepReader(String path, List<String> problems) {
        void read(JsonNode node, List<FaultStep> into) {
            if (node.isTextual()) {
                String name = node.textValue();
                if (!FAULT_FIELDS.containsKey(name)) {
                    problems.add(path + ": unknown fault '" + name + "'; one of " + FAULT_NAMES);
                    return;
                }
                into.add(FaultStep.any(withDefaults(name)));
                return;
            }
            if (!node.isObject()) {
                problems.add(path + ": must be a fault name or an object with \"fault\"");
                return;
            }
            JsonNode nameNode = node.get("fault");
            if (nameNode == null || !nameNode.isTextual()) {
                problems.add(path + ".fault: missing; one of " + FAULT_NAMES);
                return;
            }
            String name = nameNode.textValue();
            List<String> fields = FAULT_FIELDS.get(name);
            if (fields == null) {
                problems.add(path + ".fault: unknown fault '" + name + "'; one of " + FAULT_NAMES);
                return;
            }
            Set<String> known = new LinkedHashSet<>(COMMON_FIELDS);
            known.addAll(fields);
            for (String unknown : unknownFields(node, known)) {
                problems.add(path + "." + unknown + ": not a field of '" + name + "'"
                        + (fields.isEmpty() ? "" : "; its fields are " + fields));
            }
            int before = problems.size();
            long times = number(node, "times", 1, MAX_TIMES, 1);
            String credential = credential(node.get("credential"));
            Fault fault = fault(name, node);
            if (problems.size() > before) {
                return;
            }
            for (long i = 0; i < times; i++) {
                into.add(new FaultStep(fault, credential));
            }
        }

        private Fault fault(String name, JsonNode node) {
            return switch (name) {
                case "overload" -> new Fault.Overload(flag(node, "inStream"));
                case "server-error" -> serverError(node);
                case "rate-limit" -> rateLimit(node);
                case "usage-limit" ->
                    new Fault.UsageLimit(number(node, "resetsInSeconds", 1, MAX_MS / 1000, DEFAULT_RESETS_IN_SECONDS));
                case "insufficient-quota" -> new Fault.InsufficientQuota();
                case "reset-before-headers" -> new Fault.ResetBeforeHeaders();
                case "cut-after" ->
                    new Fault.CutAfter((int) number(node, "chars", 0, MAX_CHARS, DEFAULT_CUT_AFTER_CHARS));
                case "stall" ->
                    new Fault.Stall((int) number(node, "afterChars", 0, MAX_CHARS, DEFAULT_STALL_AFTER_CHARS));
                case "refusal" -> new Fault.Refusal();
                case "context-overflow" -> new Fault.ContextOverflow();
                case "unauthorized" -> new Fault.Unauthorized();
                case "delay" -> new Fault.Delay(number(node, "ms", 0, MAX_MS, DEFAULT_DELAY_MS));
                default -> new Fault.Ok();
            };
        }

        private Fault serverError(JsonNode node) {
            long status = number(node, "status", 500, 503, DEFAULT_SERVER_ERROR_STATUS);
            if (status != 500 && status != 503) {
                problems.add(path + ".status: must be 500 or 503 (got " + status + ")");
                return new Fault.Ok();
            }
            return new Fault.ServerError((int) status);
        }

        private Fault rateLimit(JsonNode node) {
            if (node.has("retryAfterSeconds") && node.has("retryAfterMs")) {
                problems.add(path + ": give retryAfterSeconds or retryAfterMs, not both");
                return new Fault.Ok();
            }
            if (node.has("retryAfterMs")) {
                return new Fault.RateLimit(null, number(node, "retryAfterMs", 0, MAX_MS, 0));
            }
            return new Fault.RateLimit(
                    number(node, "retryAfterSeconds", 0, MAX_MS / 1000, DEFAULT_RETRY_AFTER_SECONDS), null);
        }

        private long number(JsonNode node, String field, long min, long max, long fallback) {
            JsonNode value = node.get(field);
            if (value == null) {
                return fallback;
            }
            if (!value.isIntegralNumber()
                    || !value.canConvertToLong()
                    || value.longValue() < min
                    || value.longValue() > max) {
                problems.add(path + "." + field + ": must be a whole number from " + min + " to " + max + " (got "
                        + value + ")");
                return fallback;
            }
            return value.longValue();
        }

        private boolean flag(JsonNode node, String field) {
            JsonNode value = node.get(field);
            if (value != null && !value.isBoolean()) {
                problems.add(path + "." + field + ": must be true or false (got " + value + ")");
            }
            return value != null && value.asBoolean(false);
        }

        private String credential(JsonNode value) {
            if (value == null || value.isNull()) {
                return null;
            }
            if (!value.isTextual() || value.textValue().isBlank()) {
                problems.add(path + ".credential: must be the API key the step is kept for, as a non-empty string");
                return null;
            }
            return value.textValue();
        }
    }
}
