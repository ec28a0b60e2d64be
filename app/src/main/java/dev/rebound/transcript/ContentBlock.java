package dev.rebound.transcript;

/** One block of an assistant message's content. */
public sealed interface ContentBlock permits ContentBlock.Text, ContentBlock.Thinking, ContentBlock.ToolCall {

    /** Whether a person could have seen this block while it streamed. */
    boolean isObservable();

    /** Answer text. */
    record Text(String text) implements ContentBlock {
        @Override
        public boolean isObservable() {
            return text != null && !text.isEmpty();
        }
    }

    /** Reasoning the model showed; {@code redacted} when the provider sent it encrypted. */
    record Thinking(String thinking, boolean redacted) implements ContentBlock {
        @Override
        public boolean isObservable() {
            return redacted || (thinking != null && !thinking.isEmpty());
        }
    }

    /** A tool call the model made. */
    record ToolCall(String id, String name, String arguments) implements ContentBlock {
        @Override
        public boolean isObservable() {
            return true;
        }
    }
}
