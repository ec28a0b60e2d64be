package dev.rebound.api;

import java.util.List;
import java.util.Objects;

/**
 * A model's answer, or the failure of the call that should have produced it. A failed call is still a message, with
 * stop reason {@link StopReason#ERROR} (or {@link StopReason#ABORTED}) and an error message a person can read. Build
 * one with the named factories ({@link #started}, {@link #answered}, {@link #failed}, {@link #aborted}) and the
 * {@code with…} methods.
 *
 * @param id unique within the session
 * @param content the blocks received, in order (possibly partial when the call failed)
 * @param model the model it came from
 * @param api the provider's wire protocol ({@code openai-completions}...), or null before the call was made
 * @param credential the label of the credential used, or null; never a key
 * @param usage token counts, {@link Usage#NONE} when unknown
 * @param stopReason why it ended; null while it streams
 * @param errorMessage what went wrong, for people; null unless the call failed or was aborted
 * @param stopDetails structured stop detail (a refusal, a stream broken after content...), or null
 * @param failure structured facts of the failure, or null
 * @param timestamp epoch milliseconds when it ended (or began, while it streams)
 */
public record AssistantMessage(
        String id,
        List<ContentBlock> content,
        ModelRef model,
        String api,
        String credential,
        Usage usage,
        StopReason stopReason,
        String errorMessage,
        StopDetails stopDetails,
        ProviderFailure failure,
        long timestamp)
        implements ChatMessage {

    /** Requires an id and a model; null content and usage mean none. */
    public AssistantMessage {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(model, "model");
        content = content == null ? List.of() : List.copyOf(content);
        usage = usage == null ? Usage.NONE : usage;
    }

    /**
     * A reply about to stream: no content, no stop reason.
     *
     * @param id the message id
     * @param model the model asked
     * @param timestamp when it began
     * @return the message
     */
    public static AssistantMessage started(String id, ModelRef model, long timestamp) {
        return new AssistantMessage(id, List.of(), model, null, null, Usage.NONE, null, null, null, null, timestamp);
    }

    /**
     * A complete answer of text.
     *
     * @param id the message id
     * @param model the model that answered
     * @param text the answer
     * @param timestamp when it ended
     * @return the message, with stop reason {@link StopReason#STOP}
     */
    public static AssistantMessage answered(String id, ModelRef model, String text, long timestamp) {
        return new AssistantMessage(
                id,
                List.of(new ContentBlock.Text(text)),
                model,
                null,
                null,
                Usage.NONE,
                StopReason.STOP,
                null,
                null,
                null,
                timestamp);
    }

    /**
     * A failed call.
     *
     * @param id the message id
     * @param model the model that failed
     * @param errorMessage what went wrong, for people
     * @param failure its structured facts, or null
     * @param timestamp when it ended
     * @return the message, with stop reason {@link StopReason#ERROR}
     */
    public static AssistantMessage failed(
            String id, ModelRef model, String errorMessage, ProviderFailure failure, long timestamp) {
        return new AssistantMessage(
                id, List.of(), model, null, null, Usage.NONE, StopReason.ERROR, errorMessage, null, failure, timestamp);
    }

    /**
     * A call the user stopped.
     *
     * @param id the message id
     * @param model the model asked
     * @param errorMessage the stop's wording
     * @param timestamp when it ended
     * @return the message, with stop reason {@link StopReason#ABORTED}
     */
    public static AssistantMessage aborted(String id, ModelRef model, String errorMessage, long timestamp) {
        return new AssistantMessage(
                id, List.of(), model, null, null, Usage.NONE, StopReason.ABORTED, errorMessage, null, null, timestamp);
    }

    /**
     * @param blocks the content
     * @return this message with that content
     */
    public AssistantMessage withContent(List<ContentBlock> blocks) {
        return new AssistantMessage(
                id, blocks, model, api, credential, usage, stopReason, errorMessage, stopDetails, failure, timestamp);
    }

    /**
     * @param wireApi the provider's wire protocol
     * @param credentialLabel the credential's label, or null
     * @return this message with them
     */
    public AssistantMessage withCall(String wireApi, String credentialLabel) {
        return new AssistantMessage(
                id,
                content,
                model,
                wireApi,
                credentialLabel,
                usage,
                stopReason,
                errorMessage,
                stopDetails,
                failure,
                timestamp);
    }

    /**
     * @param tokens the token counts
     * @return this message with them
     */
    public AssistantMessage withUsage(Usage tokens) {
        return new AssistantMessage(
                id, content, model, api, credential, tokens, stopReason, errorMessage, stopDetails, failure, timestamp);
    }

    /**
     * @param details the structured stop detail
     * @return this message with it
     */
    public AssistantMessage withStopDetails(StopDetails details) {
        return new AssistantMessage(
                id, content, model, api, credential, usage, stopReason, errorMessage, details, failure, timestamp);
    }

    @Override
    public String role() {
        return "assistant";
    }

    /** The concatenated answer text (thinking and tool calls excluded). */
    public String text() {
        StringBuilder sb = new StringBuilder();
        for (ContentBlock block : content) {
            if (block instanceof ContentBlock.Text t) {
                sb.append(t.text());
            }
        }
        return sb.toString();
    }

    /** Whether the call failed (stop reason error). */
    public boolean isError() {
        return stopReason == StopReason.ERROR;
    }
}
