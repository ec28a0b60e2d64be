package dev.rebound.simulator;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes the simulator's replies: plausible Markdown (headings, lists, a table, a fenced code block) about resilient
 * networking, assembled from phrase banks. The same seed and prompt give the same reply, so a retried request gets the
 * answer the failed one would have given. Length: about {@value #SHORT_TOKENS} tokens; about {@value #LONG_TOKENS}
 * when the prompt asks for "a long answer" (or reply, response); exactly N tokens (at most {@value #MAX_TOKENS}) when
 * it asks to "answer in N tokens" (or reply, respond, write). A prompt that merely mentions "long" or "N tokens"
 * ("how long…", "my 128000 tokens context") gets the default length.
 */
public final class ReplyComposer {
    static final int SHORT_TOKENS = 220;
    static final int LONG_TOKENS = 2500;
    static final int MAX_TOKENS = 1_000_000;

    /** An explicit request for a length: "answer in 5000 tokens", "reply with exactly 80 tokens", "write 300 tokens". */
    private static final Pattern TOKEN_COUNT = Pattern.compile(
            "\\b(?:answer|reply|respond|write)\\s+(?:(?:in|with|using)\\s+)?(?:exactly\\s+|about\\s+)?(\\d{1,7})\\s*tokens?\\b",
            Pattern.CASE_INSENSITIVE);
    /** An explicit request for a long reply: "a long answer", "longer reply", "long response". */
    private static final Pattern LONG =
            Pattern.compile("\\blong(?:er)?\\s+(?:answer|reply|response)\\b", Pattern.CASE_INSENSITIVE);

    private static final List<String> TOPICS = List.of(
            "Retrying with exponential backoff",
            "Rotating API keys",
            "Falling back to another model",
            "Reading rate-limit headers",
            "Streaming replies over SSE",
            "Keeping a chat durable",
            "Timeouts that mean something",
            "Telling transient from terminal errors");
    private static final List<String> OPENERS = List.of(
            "Here is a short overview.",
            "Good question.",
            "This comes up often with hosted models.",
            "The short answer: it depends on the failure.",
            "Let me break this down.",
            "A practical way to think about it follows.");
    private static final List<String> SUBJECTS = List.of(
            "A retry",
            "The client",
            "Each attempt",
            "The provider",
            "A rate limit",
            "The backoff",
            "An overloaded server",
            "The stream",
            "A usage limit",
            "The session");
    private static final List<String> VERBS = List.of(
            "should wait",
            "usually recovers",
            "must never replay",
            "can switch keys",
            "reports its delay",
            "ends the chain",
            "keeps the context",
            "waits longer",
            "gives up early",
            "resumes the turn");
    private static final List<String> TAILS = List.of(
            "when the server asks for it",
            "after a jittered delay",
            "before the user notices",
            "once the budget runs out",
            "unless text was already shown",
            "within the time budget",
            "on the next attempt",
            "if another credential is free",
            "and says so in an event",
            "without losing the prompt");
    private static final List<String> ITEMS = List.of(
            "**Backoff** doubles the wait after each failure",
            "**Jitter** spreads retries so clients do not stampede",
            "**Retry-After** headers win over local guesses",
            "**Credential rotation** keeps a second key warm",
            "**Fallback chains** name the next model to try",
            "**Time budgets** stop a chain that would run forever",
            "**Observable output** is never replayed",
            "**Cancel Retry** is always one key press away",
            "**Usage limits** block a key until they reset");
    private static final List<String[]> ROWS = List.of(
            new String[] {"429", "rate limit", "wait, then retry"},
            new String[] {"529", "overloaded", "back off and retry"},
            new String[] {"401", "bad key", "stop and ask"},
            new String[] {"503", "unavailable", "retry with backoff"},
            new String[] {"400", "bad request", "do not retry"},
            new String[] {"402", "no credit", "switch key or stop"});
    private static final List<String> CODE = List.of("""
            ```java
            long delay = Math.min(base * (1L << (attempt - 1)), 8_000);
            delay = (long) (delay * (0.75 + random.nextDouble() * 0.25));
            ```""", """
            ```python
            for attempt in range(1, max_retries + 1):
                delay = min(base * 2 ** (attempt - 1), 8.0) * random.uniform(0.75, 1.0)
                time.sleep(delay)
            ```""", """
            ```bash
            curl -N http://127.0.0.1:8089/v1/chat/completions \\
              -H 'Content-Type: application/json' \\
              -d '{"model":"rebound-simulator","stream":true,"messages":[{"role":"user","content":"hi"}]}'
            ```""", """
            ```json
            { "retry": { "maxRetries": 10, "baseDelayMs": 500, "maxDelayMs": 300000 } }
            ```""");

    /** Short sentences to end a reply on; the one at index i has i + 1 tokens (no word is longer than a token). */
    private static final List<String> ENDINGS = List.of(
            "Done.", "Keep trying.", "Hope this helps.", "Retry with some care.", "Never replay what was shown.");

    private final long seed;

    /** Replies derived from {@code seed}. */
    public ReplyComposer(long seed) {
        this.seed = seed;
    }

    /** How many tokens a reply to {@code prompt} should have. */
    static int targetTokens(String prompt) {
        Matcher count = TOKEN_COUNT.matcher(prompt);
        if (count.find()) {
            return Math.clamp(Long.parseLong(count.group(1)), 1, MAX_TOKENS);
        }
        return LONG.matcher(prompt).find() ? LONG_TOKENS : SHORT_TOKENS;
    }

    /** The reply to a prompt, already split into tokens. */
    public List<String> reply(String prompt) {
        String text = prompt == null ? "" : prompt;
        int target = targetTokens(text);
        SplittableRandom random = new SplittableRandom(seed * 31 + text.hashCode());
        StringBuilder out = new StringBuilder(target * 5);
        out.append("## ")
                .append(pick(random, TOPICS))
                .append("\n\n")
                .append(pick(random, OPENERS))
                .append(' ')
                .append(sentence(random))
                .append("\n\n");
        int tokens = Tokens.count(out);
        int section = 1;
        StringBuilder part = new StringBuilder();
        while (tokens < target) {
            part.setLength(0);
            appendSection(part, random, section++);
            int more = Tokens.count(part);
            if (tokens + more > target) {
                break;
            }
            tokens += more;
            out.append(part);
        }
        // Ends on a whole paragraph of exactly the tokens left, not in the middle of a table or code block: sentences
        // while they fit, then as much of the closing sentence as is left.
        StringBuilder last = new StringBuilder();
        for (String next = sentence(random);
                tokens < target && tokens + Tokens.count(next) <= target;
                next = sentence(random)) {
            last.append(last.isEmpty() ? "" : " ").append(next);
            tokens += Tokens.count(next);
        }
        if (tokens < target) {
            last.append(last.isEmpty() ? "" : " ").append(closing(target - tokens));
        }
        out.append(last);
        return Tokens.cut(Tokens.split(out.toString().strip()), target);
    }

    /** Complete sentences of exactly {@code words} tokens, to end a reply on: the longest that fit, in turn. */
    private static String closing(int words) {
        StringBuilder text = new StringBuilder();
        for (int left = words; left > 0; ) {
            int take = Math.min(left, ENDINGS.size());
            text.append(text.isEmpty() ? "" : " ").append(ENDINGS.get(take - 1));
            left -= take;
        }
        return text.toString();
    }

    private static void appendSection(StringBuilder out, SplittableRandom random, int section) {
        out.append("### ")
                .append(section)
                .append(". ")
                .append(pick(random, TOPICS))
                .append("\n\n");
        out.append(sentence(random)).append(' ').append(sentence(random)).append("\n\n");
        switch (section % 3) {
            case 1 -> {
                for (String item : pickDistinct(random, ITEMS, 3 + random.nextInt(3))) {
                    out.append("- ").append(item).append('\n');
                }
            }
            case 2 -> {
                out.append("| status | meaning | what to do |\n|---|---|---|\n");
                for (String[] row : pickDistinct(random, ROWS, 2 + random.nextInt(3))) {
                    out.append("| ")
                            .append(row[0])
                            .append(" | ")
                            .append(row[1])
                            .append(" | ")
                            .append(row[2])
                            .append(" |\n");
                }
            }
            default -> out.append(pick(random, CODE)).append('\n');
        }
        out.append('\n').append(sentence(random)).append("\n\n");
    }

    private static String sentence(SplittableRandom random) {
        String s = pick(random, SUBJECTS) + " " + pick(random, VERBS) + " " + pick(random, TAILS) + ".";
        return s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }

    /** {@code count} different elements of {@code from}, in a random order (a list never names a point twice). */
    private static <T> List<T> pickDistinct(SplittableRandom random, List<T> from, int count) {
        List<T> left = new java.util.ArrayList<>(from);
        List<T> picked = new java.util.ArrayList<>(count);
        for (int i = 0; i < count && !left.isEmpty(); i++) {
            picked.add(left.remove(random.nextInt(left.size())));
        }
        return picked;
    }

    private static <T> T pick(SplittableRandom random, List<T> from) {
        return from.get(random.nextInt(from.size()));
    }
}
