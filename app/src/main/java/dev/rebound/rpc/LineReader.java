package dev.rebound.rpc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads UTF-8 lines split on {@code \n} only: a {@code \r} before it is dropped, and U+2028/U+2029 inside a line are
 * data (unlike {@link java.io.BufferedReader#readLine()}, which also splits on a lone {@code \r}). A line longer than
 * the limit is reported as too long and skipped up to its end, so one bad frame cannot exhaust memory.
 */
final class LineReader {
    /** What {@link #next()} found. */
    sealed interface Line {
        record Text(String text) implements Line {}

        record TooLong(long length) implements Line {}

        record End() implements Line {}
    }

    private final InputStream in;
    private final int maxBytes;
    private final byte[] buffer = new byte[8192];
    private int pos;
    private int limit;

    LineReader(InputStream in, int maxBytes) {
        this.in = in;
        this.maxBytes = maxBytes;
    }

    /** The next line, or {@link Line.End} at end of input (a last line without {@code \n} is still returned). */
    Line next() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        long length = 0;
        boolean sawAny = false;
        while (true) {
            if (pos == limit) {
                limit = in.read(buffer);
                pos = 0;
                if (limit <= 0) {
                    limit = 0;
                    if (!sawAny) {
                        return new Line.End();
                    }
                    return finish(line, length);
                }
            }
            sawAny = true;
            int start = pos;
            while (pos < limit && buffer[pos] != '\n') {
                pos++;
            }
            int count = pos - start;
            length += count;
            if (length <= maxBytes) {
                line.write(buffer, start, count);
            }
            if (pos < limit) {
                pos++;
                return finish(line, length);
            }
        }
    }

    private Line finish(ByteArrayOutputStream line, long length) {
        if (length > maxBytes) {
            return new Line.TooLong(length);
        }
        String text = line.toString(StandardCharsets.UTF_8);
        if (text.endsWith("\r")) {
            text = text.substring(0, text.length() - 1);
        }
        return new Line.Text(text);
    }
}
