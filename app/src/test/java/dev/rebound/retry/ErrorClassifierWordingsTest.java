package dev.rebound.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.event.ErrorKind;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.FailureKind;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopReason;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The classifier against wordings written for each family by a reviewer who had not seen its rules
 * ({@code constructed-wordings.txt}): variants of real transport exceptions, quota texts, clock formats, request-size
 * sentences, entitlement gates and model-server failures, and near misses that must not match. The corpus pins real
 * texts; these pin that the rules are written for the family.
 */
class ErrorClassifierWordingsTest {
    private static final List<Wording> WORDINGS = load();
    private final ErrorClassifier classifier = new ErrorClassifier();

    static Stream<Wording> wordings() {
        return WORDINGS.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wordings")
    void eachWordingGetsAnAllowedVerdict(Wording wording) {
        Classification c = classifier.classify(new ClassifierInput(wording.message(), "openai-completions", false));
        String got = c.verdict() != Classification.Verdict.RETRY
                ? c.verdict().name()
                : c.kind() == ErrorKind.USAGE_LIMIT
                        ? "USAGE_" + c.usageLimitReason()
                        : c.kind().name();

        assertThat(wording.allowed())
                .as("%s (rule %s)", wording.text(), c.rule())
                .contains(got);
    }

    @Test
    void theWordingsReachEveryFamilyAndItsNearMisses() {
        assertThat(WORDINGS).hasSizeGreaterThanOrEqualTo(150);
        assertThat(WORDINGS.stream().flatMap(w -> w.allowed().stream()).distinct())
                .contains(
                        "TRANSIENT", "TERMINAL", "RATE_LIMIT", "USAGE_QUOTA", "USAGE_ENTITLEMENT", "USAGE_PER_MINUTE");
    }

    private static List<Wording> load() {
        try (InputStream in = ErrorClassifierWordingsTest.class.getResourceAsStream("constructed-wordings.txt")) {
            List<Wording> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    out.add(Wording.parse(line));
                }
            }
            return List.copyOf(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One line: the verdicts allowed, the facts a provider would give, and the text. */
    record Wording(List<String> allowed, Integer status, FailureKind kind, String type, String code, String text) {
        static Wording parse(String line) {
            String[] p = line.split("\\|", 6);
            Integer status = p[1].isBlank() ? null : Integer.valueOf(p[1].strip());
            FailureKind kind =
                    !p[2].isBlank() ? FailureKind.valueOf(p[2].strip()) : status != null ? FailureKind.HTTP : null;
            return new Wording(
                    Arrays.asList(p[0].strip().split("/")), status, kind, blankToNull(p[3]), blankToNull(p[4]), p[5]);
        }

        AssistantMessage message() {
            ProviderFailure failure = kind == null ? null : new ProviderFailure(kind, status, type, code, Map.of());
            return new AssistantMessage(
                    "m",
                    List.of(),
                    "p",
                    "model",
                    "openai-completions",
                    null,
                    null,
                    StopReason.ERROR,
                    text,
                    null,
                    failure,
                    0L);
        }

        @Override
        public String toString() {
            return text.length() > 100 ? text.substring(0, 100) + "…" : text;
        }

        private static String blankToNull(String s) {
            return s.isBlank() ? null : s.strip();
        }
    }
}
