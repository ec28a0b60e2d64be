package dev.rebound.transcript;

import java.util.List;

/**
 * A model's answer, or the failure of the call that should have produced it. A failed call is still a message, with
 * stop reason {@link StopReason#ERROR} (or {@link StopReason#ABORTED}) and an error message a person can read.
 *
 * @param id unique within the session
 * @param content the blocks received, in order (possibly partial when the call failed)
 * @param provider provider key in settings
 * @param model model id
 * @param api the provider's wire protocol ({@code openai-completions}...)
 * @param credential the label of the credential used, or null; never a key
 * @param usage token counts, {@link Usage#NONE} when unknown
 * @param stopReason why it ended
 * @param errorMessage what went wrong, for people; null unless the call failed or was aborted
 * @param stopDetails structured stop detail, or null
 * @param failure structured facts of the failure, or null
 * @param timestamp epoch milliseconds when it ended
 * @param startedAt epoch milliseconds when its call began, or null when not known (messages saved before it was kept)
 */
public record AssistantMessage(
        String id,
        List<ContentBlock> content,
        String provider,
        String model,
        String api,
        String credential,
        Usage usage,
        StopReason stopReason,
        String errorMessage,
        StopDetails stopDetails,
        ProviderFailure failure,
        long timestamp,
        Long startedAt)
        implements ChatMessage {

    public AssistantMessage {
        content = content == null ? List.of() : List.copyOf(content);
        usage = usage == null ? Usage.NONE : usage;
    }

    /** A message whose start is not known (the session stamps it with {@link #withStartedAt}). */
    public AssistantMessage(
            String id,
            List<ContentBlock> content,
            String provider,
            String model,
            String api,
            String credential,
            Usage usage,
            StopReason stopReason,
            String errorMessage,
            StopDetails stopDetails,
            ProviderFailure failure,
            long timestamp) {
        this(
                id,
                content,
                provider,
                model,
                api,
                credential,
                usage,
                stopReason,
                errorMessage,
                stopDetails,
                failure,
                timestamp,
                null);
    }

    /** A reply about to stream, as {@code message_start} announces it: no content, no stop reason yet. */
    public static AssistantMessage started(String id, String provider, String model, long timestamp) {
        return new AssistantMessage(
                id, List.of(), provider, model, null, null, null, null, null, null, null, timestamp, timestamp);
    }

    /** This message with the time its call began. */
    public AssistantMessage withStartedAt(long callStart) {
        return new AssistantMessage(
                id,
                content,
                provider,
                model,
                api,
                credential,
                usage,
                stopReason,
                errorMessage,
                stopDetails,
                failure,
                timestamp,
                callStart);
    }

    /** When its call began: {@link #startedAt()}, or its end for a message saved before starts were kept. */
    public long callStart() {
        return startedAt != null ? startedAt : timestamp;
    }

    @Override
    public String role() {
        return "assistant";
    }

    /** The concatenated answer text (thinking and tool calls excluded). */
    public String text() {
        if (content.size() == 1 && content.getFirst() instanceof ContentBlock.Text only) {
            return only.text();
        }
        StringBuilder sb = new StringBuilder();
        for (ContentBlock block : content) {
            if (block instanceof ContentBlock.Text t) {
                sb.append(t.text());
            }
        }
        return sb.toString();
    }

    /** The model this message came from. */
    public ModelRef modelRef() {
        return new ModelRef(provider, model);
    }

    /**
     * Whether a person may already have seen part of this message: any tool call, non-empty text or thinking, or a stop
     * detail saying the stream broke after content (§2 of the retry policy). Such a message is never silently replayed.
     */
    public boolean hasObservableOutput() {
        if (stopDetails != null && StopDetails.STREAM_INTERRUPTED_AFTER_CONTENT.equals(stopDetails.type())) {
            return true;
        }
        return content.stream().anyMatch(ContentBlock::isObservable);
    }

    /** Whether the call failed (stop reason error). */
    public boolean isError() {
        return stopReason == StopReason.ERROR;
    }
}
