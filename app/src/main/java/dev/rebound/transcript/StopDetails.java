package dev.rebound.transcript;

/**
 * Structured detail of why a message stopped, when the provider or the stream gave one.
 *
 * @param type {@link #REFUSAL}, {@link #SENSITIVE}, {@link #STREAM_INTERRUPTED_AFTER_CONTENT} or a provider's own value
 * @param explanation the provider's words, or null
 */
public record StopDetails(String type, String explanation) {
    /** The provider's safety classifier refused. */
    public static final String REFUSAL = "refusal";
    /** The provider's content filter stopped the reply. */
    public static final String SENSITIVE = "sensitive";
    /** The stream broke after some content had been shown. */
    public static final String STREAM_INTERRUPTED_AFTER_CONTENT = "stream_interrupted_after_content";

    /** Whether this is a classifier refusal (§2 of the retry policy). */
    public boolean isRefusal() {
        return REFUSAL.equals(type) || SENSITIVE.equals(type);
    }
}
