package dev.rebound.simulator;

import java.util.List;
import java.util.Map;

/**
 * How one wire format writes the 200 answer to one request: the frames of a stream (each a whole server-sent event,
 * framing included) and the JSON of a whole, non-streamed reply. {@link ReplyResponder} decides which are sent and
 * when — the pacing, a cut, a stall — so a format only says what its bytes are. One instance serves one request, so a
 * format may count (sequence numbers, running usage).
 */
sealed interface ReplyFormat permits ChatCompletionsFormat, AnthropicFormat, ResponsesFormat, GeminiFormat {

    /** The headers of the answer besides its status, for a stream or a whole reply. */
    Map<String, String> headers(boolean streamed);

    /** The frames that open a stream, before its first piece of text. */
    List<String> start();

    /** The frame that carries one piece of text. */
    String text(String piece);

    /** The frames that end a complete stream: the stop, the usage, any end marker. */
    List<String> end(String text, int outputTokens);

    /** The frames that open a refused stream. */
    List<String> refusalStart();

    /** The refusal text a refused stream spells out piece by piece; empty when the format says no such text. */
    String refusalText();

    /** The frame that carries one piece of the refusal text. */
    String refusal(String piece);

    /** The frames that end a refused stream. */
    List<String> refusalEnd();

    /** The frames of a stream that reports an overload before any text, then ends ({@code overload} in stream). */
    List<String> overloaded();

    /** The JSON of a whole reply. */
    String whole(String text, int outputTokens);

    /** The JSON of a whole refusal. */
    String wholeRefusal();
}
