package dev.rebound.provider;

import dev.rebound.auth.Secret;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.ProviderFailure;
import dev.rebound.transcript.StopDetails;
import dev.rebound.transcript.StopReason;
import dev.rebound.transcript.Usage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects one streaming reply and turns it into the final {@link AssistantMessage}, whatever the outcome.
 *
 * <p>Each delta is passed to the {@link StreamListener} as it is appended. Consecutive text deltas form one
 * {@link ContentBlock.Text}, consecutive thinking deltas one {@link ContentBlock.Thinking}, in arrival order; tool call
 * deltas are gathered per index into one {@link ContentBlock.ToolCall}, placed where that call first appeared.
 *
 * <p>Every error message and stop explanation is run through the credential's {@link Secret#redactFrom}, so a server
 * that echoes the key cannot leak it. A failure with observable content gets the stop details
 * {@code stream_interrupted_after_content} unless it has more specific ones.
 *
 * <p>Not thread-safe: used by the thread that runs the call.
 */
public final class ReplyBuilder {
    private final ProviderRequest request;
    private final String api;
    private final StreamListener listener;
    private final List<Part> parts = new ArrayList<>();
    private final Map<Integer, ToolPart> toolCalls = new HashMap<>();
    private final KeyScrubber textScrubber;
    private final KeyScrubber thinkingScrubber;
    private Usage usage = Usage.NONE;
    private int characters;

    /**
     * @param request the call this reply answers (message id, provider, model, credential)
     * @param api the wire protocol's settings name ({@code openai-completions})
     * @param listener receives every delta as it is appended
     */
    public ReplyBuilder(ProviderRequest request, String api, StreamListener listener) {
        this.request = request;
        this.api = api;
        this.listener = listener;
        this.textScrubber = new KeyScrubber(request.keysToHide());
        this.thinkingScrubber = new KeyScrubber(request.keysToHide());
    }

    /**
     * Appends answer text and passes it to the listener; empty deltas are ignored. A server that echoes the key is
     * scrubbed, even when the key is split across deltas.
     */
    public void appendText(String delta) {
        if (delta == null || delta.isEmpty()) {
            return;
        }
        releaseThinking(thinkingScrubber.flush());
        releaseText(textScrubber.push(delta));
    }

    private void releaseText(String delta) {
        if (delta.isEmpty()) {
            return;
        }
        TextPart text;
        if (last() instanceof TextPart current) {
            text = current;
        } else {
            text = new TextPart(new StringBuilder());
            parts.add(text);
        }
        text.text().append(delta);
        characters += delta.length();
        listener.onTextDelta(delta);
    }

    /** Appends reasoning text and passes it to the listener; empty deltas are ignored; scrubbed like text. */
    public void appendThinking(String delta) {
        if (delta == null || delta.isEmpty()) {
            return;
        }
        releaseText(textScrubber.flush());
        releaseThinking(thinkingScrubber.push(delta));
    }

    private void releaseThinking(String delta) {
        if (delta.isEmpty()) {
            return;
        }
        ThinkingPart thinking;
        if (last() instanceof ThinkingPart current) {
            thinking = current;
        } else {
            thinking = new ThinkingPart(new StringBuilder());
            parts.add(thinking);
        }
        thinking.text().append(delta);
        characters += delta.length();
        listener.onThinkingDelta(delta);
    }

    /** Adds a block of reasoning the provider sent encrypted (Anthropic's {@code redacted_thinking}): not shown. */
    public void appendRedactedThinking() {
        releaseText(textScrubber.flush());
        releaseThinking(thinkingScrubber.flush());
        parts.add(new RedactedPart());
    }

    /**
     * Adds a piece of the tool call at {@code index}: its id and name when given (the first one sent is kept), and a
     * piece of its JSON arguments.
     */
    public void appendToolCall(int index, String id, String name, String argumentsDelta) {
        ToolPart call = toolCalls.computeIfAbsent(index, i -> {
            ToolPart created = new ToolPart();
            parts.add(created);
            return created;
        });
        call.add(id, name, argumentsDelta);
        if (argumentsDelta != null) {
            characters += argumentsDelta.length();
        }
    }

    /** Records the token counts the provider reported (the last report wins). */
    public void usage(Usage reported) {
        usage = reported == null ? Usage.NONE : reported;
    }

    /**
     * Characters of text, thinking and tool-call arguments received so far, including text held back while it could
     * still be the start of the key (a reply cut right after an "s" when the key starts with "s" has still received it).
     */
    public int characters() {
        return characters + textScrubber.held() + thinkingScrubber.held();
    }

    /** Whether a person may already have seen part of this reply. */
    public boolean hasObservableContent() {
        return content().stream().anyMatch(ContentBlock::isObservable);
    }

    /** The reply as it stands, blocks in arrival order. */
    public List<ContentBlock> content() {
        List<ContentBlock> blocks = new ArrayList<>(parts.size());
        for (Part part : parts) {
            ContentBlock block = part.toBlock();
            if (block instanceof ContentBlock.ToolCall call) {
                block = new ContentBlock.ToolCall(call.id(), call.name(), textScrubber.scrub(call.arguments()));
            }
            blocks.add(block);
        }
        return blocks;
    }

    /** The finished reply. */
    public AssistantMessage complete(StopReason stopReason, long timestamp) {
        return message(stopReason, null, null, null, timestamp);
    }

    /**
     * The reply of a failed call: stop reason {@code error}, the content received so far, the redacted message.
     *
     * @param errorMessage what went wrong, for people
     * @param stopDetails structured detail (a refusal), or null for {@code stream_interrupted_after_content} when content
     *     had arrived
     * @param failure the structured facts, or null when the call itself did not fail (a refusal)
     */
    public AssistantMessage failed(
            String errorMessage, StopDetails stopDetails, ProviderFailure failure, long timestamp) {
        releaseText(textScrubber.flush());
        releaseThinking(thinkingScrubber.flush());
        StopDetails details = stopDetails;
        if (details == null && hasObservableContent()) {
            details = new StopDetails(StopDetails.STREAM_INTERRUPTED_AFTER_CONTENT, null);
        }
        if (details != null) {
            details = new StopDetails(details.type(), redact(details.explanation()));
        }
        return message(StopReason.ERROR, redact(errorMessage), details, redact(failure), timestamp);
    }

    /** The reply of an aborted call: stop reason {@code aborted}, {@code Request was aborted}, the content so far. */
    public AssistantMessage aborted(long timestamp) {
        return message(StopReason.ABORTED, "Request was aborted", null, null, timestamp);
    }

    private AssistantMessage message(
            StopReason stopReason, String errorMessage, StopDetails details, ProviderFailure failure, long timestamp) {
        releaseText(textScrubber.flush());
        releaseThinking(thinkingScrubber.flush());
        String credential =
                request.credential() == null ? null : request.credential().label();
        return new AssistantMessage(
                request.messageId(),
                content(),
                request.provider().key(),
                request.model().id(),
                api,
                credential,
                usage,
                stopReason,
                errorMessage,
                details,
                failure,
                timestamp);
    }

    private String redact(String text) {
        return request.credential() == null
                ? text
                : request.credential().secret().redactFrom(text);
    }

    private ProviderFailure redact(ProviderFailure failure) {
        if (failure == null || request.credential() == null) {
            return failure;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        failure.headers().forEach((name, value) -> headers.put(name, redact(value)));
        return new ProviderFailure(
                failure.kind(),
                failure.httpStatus(),
                redact(failure.errorType()),
                redact(failure.errorCode()),
                headers);
    }

    private Part last() {
        return parts.isEmpty() ? null : parts.getLast();
    }

    private sealed interface Part permits TextPart, ThinkingPart, RedactedPart, ToolPart {
        ContentBlock toBlock();
    }

    private record TextPart(StringBuilder text) implements Part {
        @Override
        public ContentBlock toBlock() {
            return new ContentBlock.Text(text.toString());
        }
    }

    private record ThinkingPart(StringBuilder text) implements Part {
        @Override
        public ContentBlock toBlock() {
            return new ContentBlock.Thinking(text.toString(), false);
        }
    }

    private record RedactedPart() implements Part {
        @Override
        public ContentBlock toBlock() {
            return new ContentBlock.Thinking("", true);
        }
    }

    /** A tool call being assembled from its deltas. */
    private static final class ToolPart implements Part {
        private final StringBuilder arguments = new StringBuilder();
        private String id;
        private String name;

        void add(String idDelta, String nameDelta, String argumentsDelta) {
            if (id == null && idDelta != null && !idDelta.isEmpty()) {
                id = idDelta;
            }
            if (name == null && nameDelta != null && !nameDelta.isEmpty()) {
                name = nameDelta;
            }
            if (argumentsDelta != null) {
                arguments.append(argumentsDelta);
            }
        }

        @Override
        public ContentBlock toBlock() {
            return new ContentBlock.ToolCall(id, name, arguments.toString());
        }
    }
}
