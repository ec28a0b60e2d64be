package dev.rebound.api;

/** One block of an assistant message's content. New kinds of block may come: give a {@code switch} a default. */
public sealed interface ContentBlock permits ContentBlock.Text, ContentBlock.Thinking, ContentBlock.ToolCall {

    /**
     * Answer text.
     *
     * @param text the text
     */
    record Text(String text) implements ContentBlock {}

    /**
     * Reasoning the model showed.
     *
     * @param thinking the reasoning text (empty when redacted)
     * @param redacted true when the provider sent it encrypted
     */
    record Thinking(String thinking, boolean redacted) implements ContentBlock {}

    /**
     * A tool call the model made.
     *
     * @param id the call's id
     * @param name the tool's name
     * @param arguments the arguments, as the model wrote them (JSON text)
     */
    record ToolCall(String id, String name, String arguments) implements ContentBlock {}
}
