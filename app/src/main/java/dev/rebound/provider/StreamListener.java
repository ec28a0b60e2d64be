package dev.rebound.provider;

/** Receives the pieces of a streaming reply, on the thread that called {@link ChatProvider#stream}. */
public interface StreamListener {

    /** A piece of answer text. */
    void onTextDelta(String delta);

    /** A piece of reasoning the provider streamed. */
    void onThinkingDelta(String delta);

    /** A listener that ignores everything. */
    StreamListener IGNORE = new StreamListener() {
        @Override
        public void onTextDelta(String delta) {}

        @Override
        public void onThinkingDelta(String delta) {}
    };
}
