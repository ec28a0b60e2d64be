package dev.rebound.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenariosTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<FaultStep> parse(String json) throws Exception {
        return Scenarios.parse(JSON.readTree(json));
    }

    private static JsonNode tree(String json) throws Exception {
        return JSON.readTree(json);
    }

    @Test
    void everyFaultOfTheDocumentedExampleIsRead() throws Exception {
        List<FaultStep> steps = parse("""
                { "steps": [
                  { "fault": "overload", "times": 3 },
                  { "fault": "rate-limit", "retryAfterSeconds": 2 },
                  { "fault": "rate-limit", "retryAfterMs": 1500 },
                  { "fault": "usage-limit", "credential": "sim-key-primary", "resetsInSeconds": 120 },
                  "insufficient-quota",
                  { "fault": "reset-before-headers" },
                  { "fault": "cut-after", "chars": 120 },
                  { "fault": "stall", "afterChars": 40 },
                  { "fault": "refusal" },
                  { "fault": "context-overflow" },
                  { "fault": "unauthorized" },
                  { "fault": "delay", "ms": 3000 },
                  { "fault": "ok" }
                ] }""");

        assertThat(steps)
                .extracting(FaultStep::fault)
                .containsExactly(
                        new Fault.Overload(),
                        new Fault.Overload(),
                        new Fault.Overload(),
                        new Fault.RateLimit(2L, null),
                        new Fault.RateLimit(null, 1500L),
                        new Fault.UsageLimit(120),
                        new Fault.InsufficientQuota(),
                        new Fault.ResetBeforeHeaders(),
                        new Fault.CutAfter(120),
                        new Fault.Stall(40),
                        new Fault.Refusal(),
                        new Fault.ContextOverflow(),
                        new Fault.Unauthorized(),
                        new Fault.Delay(3000),
                        new Fault.Ok());
        assertThat(steps.get(5).credential()).isEqualTo("sim-key-primary");
        assertThat(steps.get(0).credential()).isNull();
    }

    @Test
    void aBareArrayIsAScenarioAndOptionalFieldsTakeTheirDefaults() throws Exception {
        List<FaultStep> steps = parse("[\"rate-limit\", \"usage-limit\", \"cut-after\", \"stall\", \"delay\"]");

        assertThat(steps)
                .extracting(FaultStep::fault)
                .containsExactly(
                        new Fault.RateLimit(Scenarios.DEFAULT_RETRY_AFTER_SECONDS, null),
                        new Fault.UsageLimit(Scenarios.DEFAULT_RESETS_IN_SECONDS),
                        new Fault.CutAfter(Scenarios.DEFAULT_CUT_AFTER_CHARS),
                        new Fault.Stall(Scenarios.DEFAULT_STALL_AFTER_CHARS),
                        new Fault.Delay(Scenarios.DEFAULT_DELAY_MS));
    }

    @Test
    void everyFaultNameHasAFaultWithDefaultsAndNoOtherNameHas() {
        assertThat(Scenarios.FAULT_NAMES)
                .allSatisfy(
                        name -> assertThat(Scenarios.withDefaults(name).name()).isEqualTo(name));
        assertThatThrownBy(() -> Scenarios.withDefaults("overlaod")).hasMessageStartingWith("unknown fault 'overlaod'");
    }

    @Test
    void aMalformedScenarioIsRefusedWholeNamingEveryStepAndField() {
        assertThatThrownBy(() -> parse("""
                { "steps": [ { "fault": "overload" },
                             { "fault": "overlaod" },
                             { "fault": "cut-after", "chars": "ten" },
                             { "fault": "rate-limit", "retryAfter": 2 },
                             { "fault": "rate-limit", "retryAfterSeconds": 1, "retryAfterMs": 5 },
                             { "fault": "ok", "times": 0 },
                             { "fault": "ok", "credential": "" },
                             42 ] }"""))
                .isInstanceOf(ScenarioException.class)
                .satisfies(e -> assertThat(((ScenarioException) e).problems())
                        .containsExactly(
                                "steps[1].fault: unknown fault 'overlaod'; one of " + Scenarios.FAULT_NAMES,
                                "steps[2].chars: must be a whole number from 0 to 1000000 (got \"ten\")",
                                "steps[3].retryAfter: not a field of 'rate-limit'; its fields are "
                                        + "[retryAfterSeconds, retryAfterMs]",
                                "steps[4]: give retryAfterSeconds or retryAfterMs, not both",
                                "steps[5].times: must be a whole number from 1 to 1000 (got 0)",
                                "steps[6].credential: must be the API key the step is kept for, as a non-empty string",
                                "steps[7]: must be a fault name or an object with \"fault\""))
                .hasMessageStartingWith("The scenario was refused, nothing was queued: steps[1].fault");
    }

    @Test
    void aDocumentWithoutStepsSaysWhatAScenarioLooksLike() {
        assertThatThrownBy(() -> parse("{\"step\": []}")).hasMessageContaining("unknown field(s) [step]");
        assertThatThrownBy(() -> parse("{}")).hasMessageContaining("steps: must be an array of steps");
    }

    @Test
    void aFileThatIsNotJsonIsRefusedWithItsLineAndColumn(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("scenario.json");
        Files.writeString(file, "{ \"steps\": [\n  \"overload\",, ] }");

        assertThatThrownBy(() -> Scenarios.read(file))
                .hasMessage("not valid JSON at line 2, column 14: Unexpected "
                        + "character (',' (code 44)): expected a valid value (JSON String, Number, Array, Object or token "
                        + "'null', 'true' or 'false')");
    }

    @Test
    void anUnfinishedFileIsOneLineWithoutJacksonsExcerptOfTheSource(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("scenario.json");
        Files.writeString(file, "{ \"steps\": [\n  \"overload\"\n");

        assertThatThrownBy(() -> Scenarios.read(file))
                .hasMessageStartingWith("not valid JSON at line 3, column 1: ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n", "Source", file.toString()));
    }

    @Test
    void aMissingFileSaysNoSuchFileWithoutRepeatingThePath(@TempDir Path dir) {
        assertThatThrownBy(() -> Scenarios.read(dir.resolve("nope.json"))).hasMessage("no such file");
    }

    @Test
    void aServerErrorIs503Or500() throws Exception {
        assertThat(parse("[ \"server-error\", { \"fault\": \"server-error\", \"status\": 500 } ]"))
                .extracting(FaultStep::fault)
                .containsExactly(new Fault.ServerError(503), new Fault.ServerError(500));
        assertThatThrownBy(() -> parse("[ { \"fault\": \"server-error\", \"status\": 501 } ]"))
                .hasMessageEndingWith("steps[0].status: must be 500 or 503 (got 501)");
    }

    @Test
    void theJsonFormReadsBackToTheSameSteps() throws Exception {
        List<FaultStep> steps = parse("""
                [ { "fault": "rate-limit", "retryAfterMs": 250, "credential": "k" }, "refusal",
                  { "fault": "stall", "afterChars": 3 }, { "fault": "usage-limit", "resetsInSeconds": 9 } ]""");

        assertThat(Scenarios.parse(tree(Scenarios.toJson(steps).toString()))).isEqualTo(steps);
    }

    @Test
    void requestsTakeStepsInOrderAndStepsKeptForAKeyWaitForIt() {
        FaultQueue queue = new FaultQueue(List.of(
                new FaultStep(new Fault.UsageLimit(5), "first"),
                FaultStep.any(new Fault.Overload()),
                FaultStep.any(new Fault.Refusal())));

        assertThat(queue.take("second").fault()).isEqualTo(new Fault.Overload());
        assertThat(queue.take(null).fault()).isEqualTo(new Fault.Refusal());
        assertThat(queue.take("second").fault()).isEqualTo(new Fault.Ok());
        assertThat(queue.take("first").fault()).isEqualTo(new Fault.UsageLimit(5));
        assertThat(queue.queued()).isEmpty();
    }
}
