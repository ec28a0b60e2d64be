package dev.rebound.ui.model;

import dev.rebound.event.RetryEndReason;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The words of a reply's retry record: the quiet line under the reply's header, the lines of its timeline, and the
 * Markdown that Copy diagnostics puts on the clipboard. Models are shown by their display names on screen and by
 * {@code provider/id} in the diagnostics (which are for a bug report); keys only ever by their labels.
 */
public final class RetryRecordText {
    private static final int MESSAGE_CHARS = 300;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final ModelNames names;
    private final ZoneId zone;

    /**
     * @param names what models are called on screen
     * @param zone the zone of the timeline's clock times
     */
    public RetryRecordText(ModelNames names, ZoneId zone) {
        this.names = names;
        this.zone = zone;
    }

    /**
     * One line of the timeline.
     *
     * @param head the call: number, time, model, key and what happened
     * @param decision what came next and what decided it, or empty
     * @param message the error text (shortened), or empty
     */
    public record Line(String head, String decision, String message) {}

    /** {@code Recovered after 3 retries · 4.6 s · overloaded (529)}. */
    public String summary(RetryRecord r) {
        List<String> parts = new ArrayList<>();
        String retries = count(r.retries(), "retry", "retries");
        switch (r.outcome()) {
            case RECOVERED -> {
                if (r.fellBack()) {
                    parts.add("Answered by " + names.of(r.lastModel()) + " (fallback from " + names.of(r.firstModel())
                            + ")");
                    parts.add(retries);
                } else {
                    parts.add("Recovered after " + retries);
                }
            }
            case FAILED -> parts.add(r.retries() == 0 ? "Not retried" : "Failed after " + retries);
            case CANCELLED -> parts.add("Retry cancelled" + (r.retries() == 0 ? "" : " after " + retries));
            case STOPPED -> parts.add("Stopped" + (r.retries() == 0 ? "" : " after " + retries));
        }
        if (r.elapsedMs() > 0) {
            parts.add(duration(r.elapsedMs()));
        }
        String failures = failureLabels(r);
        if (!failures.isEmpty()) {
            parts.add(failures);
        }
        if (r.switchedKey()) {
            parts.add("switched key");
        }
        if (r.outcome() != RetryRecord.Outcome.RECOVERED && r.fellBack()) {
            parts.add("fell back to " + names.of(r.lastModel()));
        } else if (!r.fellBack() && r.fallbackTried() != null) {
            parts.add("via " + names.of(r.fallbackTried()) + " and back");
        }
        return String.join(" · ", parts);
    }

    /** What a screen reader says for the record line, and its tooltip. */
    public String accessibleSummary(RetryRecord r) {
        return "Retry record: " + summary(r) + ". Press to show the timeline.";
    }

    /** The timeline: one line per call, then how the chain ended when no call answered. */
    public List<Line> timeline(RetryRecord r) {
        List<Line> lines = new ArrayList<>();
        for (RetryRecord.Call call : r.calls()) {
            boolean last = call == r.calls().getLast();
            StringBuilder head = new StringBuilder();
            head.append(call.number())
                    .append(" · ")
                    .append(CLOCK.format(Instant.ofEpochMilli(call.startedAt()).atZone(zone)))
                    .append(" · ")
                    .append(names.of(call.model()));
            if (call.credential() != null) {
                head.append(" · key \"").append(call.credential()).append('"');
            }
            head.append(" · ");
            if (call.failure() != null) {
                head.append(call.failure().label());
            } else {
                head.append(
                        switch (r.outcome()) {
                            case RECOVERED -> "answered";
                            case CANCELLED -> "answered after the cancel";
                            case STOPPED -> "stopped by you";
                            case FAILED -> "ended";
                        });
            }
            String decision = last && r.endedDuringAWait() ? unrun(r, call) : decision(call);
            lines.add(new Line(head.toString(), decision, shortened(call)));
        }
        if (r.outcome() != RetryRecord.Outcome.RECOVERED) {
            String ending = "Ended: " + ending(r.reason());
            if (r.reason() == RetryEndReason.NOT_RETRYABLE && r.finalError() != null) {
                ending += " (" + shortened(oneLine(r.finalError())) + ")";
            }
            lines.add(new Line(ending, "", ""));
        }
        return lines;
    }

    /** The record as Markdown for a bug report: a summary, a table of the calls, their errors. Labels, never keys. */
    public String diagnostics(RetryRecord r) {
        StringBuilder md = new StringBuilder();
        md.append("### Rebound retry record\n\n");
        md.append("- Outcome: ")
                .append(summary(r))
                .append(" (")
                .append(r.reason())
                .append(")\n");
        md.append("- Calls: ")
                .append(r.calls().size())
                .append(", retries: ")
                .append(r.retries())
                .append(", elapsed: ")
                .append(r.elapsedMs())
                .append(" ms\n");
        if (r.finalError() != null) {
            md.append("- Final error: ").append(cell(r.finalError())).append('\n');
        }
        md.append(
                "\n| # | Started (UTC) | Model | Key | Error kind | HTTP | Failure | Request id | Wait | Decided by |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (RetryRecord.Call call : r.calls()) {
            RetryRecord.Failure f = call.failure();
            md.append("| ")
                    .append(call.number())
                    .append(" | ")
                    .append(Instant.ofEpochMilli(call.startedAt()))
                    .append(" | ")
                    .append(cell(call.model()))
                    .append(" | ")
                    .append(cell(call.credential()))
                    .append(" | ")
                    .append(f == null ? "" : cell(f.kind()))
                    .append(" | ")
                    .append(f == null || f.httpStatus() == null ? "" : f.httpStatus())
                    .append(" | ")
                    .append(
                            f == null
                                    ? (r.outcome() == RetryRecord.Outcome.RECOVERED ? "answered" : "")
                                    : cell(f.label()))
                    .append(" | ")
                    .append(cell(call.requestId()))
                    .append(" | ")
                    .append(call.delayMs() == null ? "" : call.delayMs() + " ms")
                    .append(" | ")
                    .append(cell(call.decidedBy()))
                    .append(" |\n");
        }
        List<RetryRecord.Call> failed =
                r.calls().stream().filter(c -> c.failure() != null).toList();
        if (!failed.isEmpty()) {
            md.append("\nErrors:\n\n");
            for (RetryRecord.Call call : failed) {
                md.append(call.number())
                        .append(". ")
                        .append(oneLine(call.failure().message()))
                        .append('\n');
            }
        }
        return md.toString();
    }

    /** {@code 40 ms}, {@code 0.4 s}, {@code 4.6 s}, {@code 12 s}, {@code 2 min 5 s}, {@code 1 h 5 min}. */
    static String duration(long ms) {
        if (ms < 100) {
            return ms + " ms";
        }
        if (ms < 10_000) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        long s = Math.round(ms / 1000.0);
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return s % 60 == 0 ? s / 60 + " min" : s / 60 + " min " + s % 60 + " s";
        }
        long min = s / 60;
        return min % 60 == 0 ? min / 60 + " h" : min / 60 + " h " + min % 60 + " min";
    }

    private static String decision(RetryRecord.Call call) {
        if (call.delayMs() == null) {
            return "";
        }
        String wait = call.delayMs() == 0 ? "at once" : "after " + duration(call.delayMs());
        if (call.decidedBy() == null) {
            return "retried " + wait;
        }
        return switch (call.decidedBy()) {
            case "backoff" -> "retried " + wait + " (backoff)";
            case "provider_hint" -> "retried " + wait + ", as the provider asked";
            case "usage_limit" -> "retried " + wait + ", when the usage limit allowed";
            case "credential_switch" -> "switched to another key " + wait;
            case "model_fallback" -> "fell back to another model " + wait;
            case "stale_replay" -> "sent again " + wait + " with the whole conversation";
            default -> "retried " + wait + " (" + call.decidedBy() + ")";
        };
    }

    /** The wait after the last call of a chain that ended before its retry ran. */
    private static String unrun(RetryRecord r, RetryRecord.Call call) {
        String wait = duration(call.delayMs());
        return switch (r.outcome()) {
            case CANCELLED -> "a retry was due after " + wait + "; you cancelled it";
            case STOPPED -> "a retry was due after " + wait + "; you stopped the reply";
            default -> "a retry was due after " + wait + "; it never ran";
        };
    }

    private static String ending(RetryEndReason reason) {
        return switch (reason) {
            case EXHAUSTED -> "no retries left (Settings → Retry → Max retries)";
            case MAX_DELAY_EXCEEDED -> "the wait asked for was longer than Max delay allows";
            case ELAPSED_BUDGET_EXCEEDED -> "the time budget of one chain ran out";
            case CANCELLED -> "you cancelled the retry";
            case ABORTED -> "you stopped the reply";
            case NOT_RETRYABLE -> "this failure is not retried";
            case DISABLED -> "automatic retries are off";
            case SUCCEEDED -> "answered";
        };
    }

    private static String failureLabels(RetryRecord r) {
        Set<String> labels = new LinkedHashSet<>();
        for (RetryRecord.Call call : r.calls()) {
            if (call.failure() != null) {
                labels.add(call.failure().label());
            }
        }
        List<String> shown = labels.stream().limit(2).toList();
        String joined = String.join(", ", shown);
        return labels.size() > 2 ? joined + ", …" : joined;
    }

    private static String shortened(RetryRecord.Call call) {
        if (call.failure() == null || call.failure().message() == null) {
            return "";
        }
        return shortened(oneLine(call.failure().message()));
    }

    private static String shortened(String text) {
        return text.length() <= MESSAGE_CHARS ? text : text.substring(0, MESSAGE_CHARS - 1) + "…";
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s+", " ");
    }

    /** A table cell: one line, pipes escaped. */
    private static String cell(String text) {
        return text == null ? "" : oneLine(text).replace("|", "\\|");
    }

    private static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }
}
