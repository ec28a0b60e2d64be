package dev.rebound.export;

import dev.rebound.event.AutoRetryEnd;
import dev.rebound.event.ErrorKind;
import dev.rebound.event.RetryAttempt;
import dev.rebound.event.RetryChainEnd;
import dev.rebound.event.RetryEndReason;
import dev.rebound.history.Branches;
import dev.rebound.history.JournalEntry;
import dev.rebound.history.MessageEntry;
import dev.rebound.history.ModelChangeEntry;
import dev.rebound.history.NoticeEntry;
import dev.rebound.history.RetriedMark;
import dev.rebound.history.RetryChainEntry;
import dev.rebound.retry.ChainEndWording;
import dev.rebound.session.ChatSession;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.ModelRef;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.UserMessage;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A chat as a Markdown document, from its history (the entries of its file, or of the open session): the title as
 * {@code #} heading and the date it started; each prompt under {@code ## You}, each reply under
 * {@code ## Assistant · <model>} as its Markdown source (an unclosed code fence closed, so it cannot swallow the rest),
 * its reasoning in a {@code <details>} block; a reply that needed retries says so in one line under its heading
 * ({@code _Recovered after 3 retries (overloaded 529)_}); a failed, cancelled or stopped reply ends with what the chat
 * showed; notices, fallbacks and reverts are italic lines. Retried attempts are left out (their reply stands for them).
 * Credential labels, HTTP headers and usage are never written. Immutable.
 */
public final class MarkdownExport {
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final Pattern LEADING_BLANK_LINES = Pattern.compile("\\A([ \\t]*\\r?\\n)+");
    private static final Pattern FORBIDDEN_IN_NAMES = Pattern.compile("[\\p{Cntrl}:*?<>\"]");
    private static final Set<String> RESERVED_NAMES = Set.of(
            "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9", "LPT1",
            "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9");
    private static final int MAX_NAME = 100;

    private final Function<ModelRef, String> modelNames;
    private final DateTimeFormatter dates;

    /**
     * @param modelNames what a model is called (its configured display name)
     * @param zone the zone the chat's start is written in
     */
    public MarkdownExport(Function<ModelRef, String> modelNames, ZoneId zone) {
        this.modelNames = Objects.requireNonNull(modelNames, "modelNames");
        this.dates = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm zzz", Locale.ROOT)
                .withZone(Objects.requireNonNull(zone, "zone"));
    }

    /**
     * The Markdown of a chat.
     *
     * @param title its title; null or blank for an untitled chat
     * @param created epoch milliseconds when it started
     * @param history its entries, in order
     */
    public String render(String title, long created, List<JournalEntry> history) {
        StringBuilder out = new StringBuilder();
        out.append("# ")
                .append(inline(title == null || title.isBlank() ? "New chat" : title))
                .append("\n\n");
        out.append("_Started ")
                .append(dates.format(Instant.ofEpochMilli(created)))
                .append(" · exported from Rebound_\n");
        for (Block block : blocks(history)) {
            out.append('\n');
            block.write(out);
        }
        return out.toString();
    }

    /**
     * A file name for a chat's export: the title with characters that some system refuses in names ({@code / \ :
     * * ? " < > |}, control characters) replaced, at most {@value #MAX_NAME} characters, and {@code .md}.
     */
    public static String fileName(String title) {
        String name = title == null ? "" : title;
        name = name.replace('/', '-').replace('\\', '-').replace('|', '-');
        name = FORBIDDEN_IN_NAMES.matcher(name).replaceAll(" ");
        name = WHITESPACE.matcher(name).replaceAll(" ").strip();
        if (name.codePointCount(0, name.length()) > MAX_NAME) {
            name = name.substring(0, name.offsetByCodePoints(0, MAX_NAME)).strip();
        }
        // Windows drops trailing dots and spaces, and a leading dot hides the file elsewhere.
        name = name.replaceAll("^[.\\s]+|[.\\s]+$", "");
        if (name.isEmpty()) {
            name = "Chat";
        }
        if (RESERVED_NAMES.contains(name.toUpperCase(Locale.ROOT))) {
            name = "Chat " + name;
        }
        return name + ".md";
    }

    private List<Block> blocks(List<JournalEntry> entries) {
        // A regenerated or edited turn is exported as the chat shows it now: its current branch.
        List<JournalEntry> history = Branches.current(entries);
        Set<String> retried = RetriedMark.retriedIds(history);
        List<Block> blocks = new ArrayList<>();
        Reply lastReply = null;
        for (JournalEntry entry : history) {
            switch (entry) {
                case MessageEntry m
                when m.message() instanceof UserMessage user -> {
                    blocks.add(new Prompt(user.text()));
                    lastReply = null;
                }
                case MessageEntry m
                when m.message() instanceof AssistantMessage reply -> {
                    if (!retried.contains(reply.id())) {
                        lastReply = new Reply(reply);
                        blocks.add(lastReply);
                    }
                }
                case RetryChainEntry r -> {
                    if (lastReply != null) {
                        lastReply.chain = r.chain();
                    }
                }
                case NoticeEntry n -> blocks.add(new Note(n.message()));
                case ModelChangeEntry c
                when ModelChangeEntry.REASON_FALLBACK.equals(c.reason()) ->
                    blocks.add(new Note("Switched to " + name(c.to()) + ": "
                            + (c.from() == null ? "the model" : name(c.from())) + " was unavailable."));
                case ModelChangeEntry c
                when ModelChangeEntry.REASON_REVERT.equals(c.reason()) && c.from() != null ->
                    blocks.add(new Note("Back on " + name(c.to()) + " (your model); " + name(c.from())
                            + " was a temporary fallback."));
                default -> {
                    // Titles, retried marks, the user's model choices and entries of newer versions: not shown.
                }
            }
        }
        return blocks;
    }

    private String name(ModelRef model) {
        return model == null ? "" : modelNames.apply(model);
    }

    private String name(String selector) {
        try {
            return modelNames.apply(ModelRef.parse(selector));
        } catch (IllegalArgumentException e) {
            return selector;
        }
    }

    /** A part of the document. */
    private sealed interface Block permits Prompt, Reply, Note {
        void write(StringBuilder out);
    }

    private record Prompt(String text) implements Block {
        @Override
        public void write(StringBuilder out) {
            out.append("## You\n");
            if (text != null && !text.isBlank()) {
                out.append('\n').append(source(text));
            }
        }
    }

    private record Note(String text) implements Block {
        @Override
        public void write(StringBuilder out) {
            out.append(italic(text));
        }
    }

    /** A reply, with the record of the retry chain that led to it when the history has one. */
    private final class Reply implements Block {
        private final AssistantMessage message;
        private RetryChainEnd chain;

        Reply(AssistantMessage message) {
            this.message = message;
        }

        @Override
        public void write(StringBuilder out) {
            List<String> parts = new ArrayList<>();
            String model = message.provider() != null && message.model() != null
                    ? " · " + inline(name(message.modelRef()))
                    : "";
            parts.add("## Assistant" + model + "\n");
            if (chain != null && chain.reason() == RetryEndReason.SUCCEEDED) {
                parts.add(italic(recovered()));
            }
            String reasoning = reasoning();
            if (!reasoning.isBlank()) {
                parts.add("<details>\n<summary>Reasoning</summary>\n\n" + source(reasoning) + "\n</details>\n");
            }
            String text = message.text();
            if (!text.isBlank()) {
                parts.add(source(text));
            }
            String end = ending();
            if (end != null) {
                parts.add(italic(end));
            }
            out.append(String.join("\n", parts));
        }

        /** {@code Recovered after 3 retries (overloaded 529)}, and the model that answered when it was a fallback. */
        private String recovered() {
            int retries = chain.attempts().size();
            StringBuilder line =
                    new StringBuilder("Recovered after ").append(retries).append(retries == 1 ? " retry" : " retries");
            String causes = causes(chain);
            if (!causes.isEmpty()) {
                line.append(" (").append(causes).append(')');
            }
            if (!chain.attempts().isEmpty()) {
                String first = chain.attempts().getFirst().model();
                if (first != null && !first.equals(message.modelRef().selector())) {
                    line.append(" · answered by ")
                            .append(name(message.modelRef()))
                            .append(" instead of ")
                            .append(name(first));
                }
            }
            return line.toString();
        }

        /** What the chat showed at the end of a reply that did not succeed; null for one that did. */
        private String ending() {
            if (chain != null && chain.reason() != RetryEndReason.SUCCEEDED) {
                return switch (chain.reason()) {
                    case CANCELLED ->
                        AutoRetryEnd.CANCELLED_MESSAGE
                                + (message.errorMessage() == null ? "." : ". Last error: " + message.errorMessage());
                    case ABORTED -> "Stopped.";
                    default -> ChainEndWording.describe(chain.reason(), retriesMade(chain), chain.finalError());
                };
            }
            if (message.stopReason() == StopReason.ERROR) {
                return "Failed: " + (message.errorMessage() == null ? "the reply failed." : message.errorMessage());
            }
            if (message.stopReason() == StopReason.ABORTED) {
                String why = message.errorMessage();
                return why == null || ChatSession.ABORT_MESSAGE.equals(why) ? "Stopped." : "Stopped: " + why;
            }
            return null;
        }

        private String reasoning() {
            StringBuilder thinking = new StringBuilder();
            for (ContentBlock block : message.content()) {
                if (block instanceof ContentBlock.Thinking t && !t.redacted() && t.thinking() != null) {
                    thinking.append(t.thinking());
                }
            }
            return thinking.toString();
        }
    }

    /** The retries a chain made, as the chat counts them: all after a success, else the last attempt's number. */
    private static int retriesMade(RetryChainEnd chain) {
        if (chain.reason() == RetryEndReason.SUCCEEDED) {
            return chain.attempts().size();
        }
        return chain.attempts().isEmpty() ? 0 : chain.attempts().getLast().attempt();
    }

    /** The distinct causes of a chain's failed attempts, in order: {@code overloaded 529, rate limit 429}. */
    private static String causes(RetryChainEnd chain) {
        Set<String> causes = new LinkedHashSet<>();
        for (RetryAttempt attempt : chain.attempts()) {
            String kind = kind(attempt.errorKind(), attempt.httpStatus());
            if (kind != null) {
                causes.add(attempt.httpStatus() == null ? kind : kind + " " + attempt.httpStatus());
            }
        }
        return String.join(", ", causes);
    }

    private static String kind(ErrorKind kind, Integer status) {
        if (kind == null) {
            return null;
        }
        return switch (kind) {
            case TRANSIENT -> {
                if (status == null) {
                    yield "network error";
                }
                yield status == 529 ? "overloaded" : status >= 500 ? "server error" : "error";
            }
            case RATE_LIMIT -> "rate limit";
            case USAGE_LIMIT -> "usage limit";
            case STALE_REPLAY -> "stale replay";
            case REFUSAL -> "refusal";
            case REASONLESS_ABORT -> "aborted stream";
        };
    }

    /** Markdown source as it is, ending with one line end; a code fence left open (a reply cut short) is closed. */
    static String source(String text) {
        StringBuilder out = new StringBuilder(
                LEADING_BLANK_LINES.matcher(text).replaceFirst("").stripTrailing());
        String fence = openFence(out.toString());
        if (fence != null) {
            out.append('\n').append(fence);
        }
        return out.append('\n').toString();
    }

    /** The fence that opens a code block the text leaves open, or null. */
    private static String openFence(String text) {
        char fenceChar = 0;
        int fenceLength = 0;
        for (String line : text.split("\n", -1)) {
            String trimmed = line.stripTrailing();
            int indent = 0;
            while (indent < trimmed.length() && indent < 4 && trimmed.charAt(indent) == ' ') {
                indent++;
            }
            if (indent > 3) {
                continue;
            }
            String body = trimmed.substring(indent);
            int run = 0;
            char first = body.isEmpty() ? 0 : body.charAt(0);
            while (run < body.length() && body.charAt(run) == first) {
                run++;
            }
            if ((first != '`' && first != '~') || run < 3) {
                continue;
            }
            if (fenceChar == 0) {
                if (first == '`' && body.indexOf('`', run) >= 0) {
                    continue;
                }
                fenceChar = first;
                fenceLength = run;
            } else if (first == fenceChar && run >= fenceLength && run == body.length()) {
                fenceChar = 0;
                fenceLength = 0;
            }
        }
        return fenceChar == 0 ? null : String.valueOf(fenceChar).repeat(fenceLength);
    }

    /** One italic line of plain text: whitespace collapsed, Markdown's special characters escaped. */
    private static String italic(String text) {
        return "_" + inline(text) + "_\n";
    }

    /** Plain text made safe inside a Markdown line. */
    static String inline(String text) {
        String flat =
                WHITESPACE.matcher(text == null ? "" : text).replaceAll(" ").strip();
        StringBuilder out = new StringBuilder(flat.length() + 8);
        for (int i = 0; i < flat.length(); i++) {
            char c = flat.charAt(i);
            if ("\\`*_[]<>#|~!".indexOf(c) >= 0) {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }
}
